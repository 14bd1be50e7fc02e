// @ts-check
// Types of the engine protocol (docs/protocol.md) and of the app state, for TypeScript's checker
// (`make jscheck`). This module exports nothing at run time: other modules import its types with
// `@typedef {import("./types.js").Name} Name`.

/**
 * One column of the player's view: `down` face-down cards, then the face-up cards `up` (bottom
 * to top). `pickup`: how many top cards may be lifted together; `dests[k-1]`: the columns that
 * take the group of the `k` top cards.
 * @typedef {object} ColumnView
 * @property {number} down
 * @property {string[]} up
 * @property {number} pickup
 * @property {number[][]} dests
 */

/**
 * A game the player can choose (from the engine: `state.variants`).
 * @typedef {object} Variant
 * @property {string} game
 * @property {number} suits
 * @property {string} rule
 */

/**
 * The player's view of a game, as the engine sends it (`reply.state`).
 * @typedef {object} GameState
 * @property {string} game
 * @property {number} suits
 * @property {string} rule
 * @property {string} scoring
 * @property {string | null} code
 * @property {number | null} number
 * @property {ColumnView[]} columns
 * @property {number} deals_left
 * @property {number} stock_cards
 * @property {boolean} can_deal
 * @property {string | null} deal_error
 * @property {boolean} blocked_deal
 * @property {boolean} deal_possible
 * @property {number} runs_to_win
 * @property {Variant[]} variants
 * @property {string[]} completed
 * @property {number} score
 * @property {number} moves
 * @property {boolean} won
 * @property {boolean} can_undo
 * @property {boolean} can_redo
 * @property {number | null} undo_limit
 * @property {boolean} has_moves
 * @property {boolean} from_deal_start
 */

/**
 * What an action did, in order: spoken to screen readers (messages.js) and heard (sound.js). The
 * table's animation comes from comparing states (render.js), not from these.
 * @typedef {object} GameEvent
 * @property {string} type  move, flip, run, deal, undo, redo, restart or new
 * @property {number} [src]
 * @property {number} [dst]
 * @property {number} [count]
 * @property {string[]} [cards]
 * @property {number} [column]
 * @property {number[]} [columns]
 * @property {string} [card]
 * @property {string} [suit]
 */

/**
 * @typedef {object} MoveRequest
 * @property {number} src
 * @property {number} dst
 * @property {number} count
 */

/**
 * A request to the engine (`op` and its fields; see docs/protocol.md).
 * @typedef {{op: string} & Record<string, unknown>} Request
 */

/**
 * @typedef {object} HintInfo
 * @property {MoveRequest | null} [move]
 * @property {string} [reason]
 */

/**
 * A progress message of "Think harder" (op `think`): play-outs so far, seconds, the leading
 * line in move notation, its share of the play-outs, and its first action as a request.
 * @typedef {object} ThinkProgress
 * @property {number} iterations
 * @property {number} elapsed
 * @property {string} best
 * @property {number} share
 * @property {Request} action
 */

/**
 * The answer of "Think harder" (`reply.think`). `action` is null when nothing helps and no deal
 * is possible; `{op: "deal"}` when the deal is the only thing left (never shown as advice).
 * @typedef {object} ThinkInfo
 * @property {Request | null} action
 * @property {string | null} notation
 * @property {string[]} line
 * @property {number} visits
 * @property {number} share
 * @property {number} value
 * @property {number} iterations
 * @property {string} reason
 * @property {number} elapsed
 * @property {ThinkEndgame | null} endgame set when the full solver chose the line (reason "endgame")
 */

/**
 * What the full solver's endgame line rests on: the arrangements of the face-down cards it tried
 * (0: every card is in sight, and the line wins) and in how many a win is still possible after it.
 * @typedef {object} ThinkEndgame
 * @property {number} wins
 * @property {number} arrangements
 * @property {boolean} sampled
 */

/**
 * The quick hint at the losing move, as op `hint` gives it.
 * @typedef {object} ReviewHint
 * @property {{src: number, dst: number, count: number} | null} move
 * @property {string} reason
 */

/**
 * The action that lost a reviewed game (`review.losing`), with what the hint said there.
 * @typedef {object} LosingMove
 * @property {number} number
 * @property {{op: string, src?: number, dst?: number, count?: number}} action
 * @property {string | null} card
 * @property {ReviewHint} hint
 * @property {string | null} hint_card
 * @property {boolean} hint_same
 * @property {boolean | null} think_same
 * @property {"bad-luck" | "mistake"} verdict
 */

/**
 * One fact an unproven review verdict rests on: what the solver found at position `index`.
 * @typedef {object} ReviewFact
 * @property {number} index
 * @property {"win-found" | "no-win-found" | "proven-lost"} outcome
 * @property {boolean} proven
 * @property {number} seconds
 * @property {number} positions
 * @property {string} reason
 */

/**
 * An unproven verdict: probably lost at about action `number` (at `earliest` or later: the
 * position before `earliest` is proven winnable); `move` when the two are the same action.
 * @typedef {object} ProbableLoss
 * @property {number} number
 * @property {number} earliest
 * @property {false} proven
 * @property {LosingMove | null} move
 * @property {ReviewFact[]} evidence
 */

/**
 * The answer of "Where did I lose it?" (`reply.review`, op `review`). `proven` is false for
 * `probably-lost` (see `probable`) and `could-not-tell`.
 * @typedef {object} Review
 * @property {"won" | "still-winnable" | "lost" | "never-winnable" | "probably-lost" | "could-not-tell"} status
 * @property {boolean} proven
 * @property {number} moves
 * @property {number | null} last_winnable
 * @property {number | null} first_unwinnable
 * @property {LosingMove | null} losing
 * @property {ProbableLoss | null} probable
 * @property {string | null} practice
 * @property {number} elapsed
 */

/**
 * A progress message of op `review`: the position being judged, the solver runs so far, and the
 * actions on the played line.
 * @typedef {object} ReviewProgress
 * @property {number} probing
 * @property {number} probes
 * @property {number} moves
 */

/**
 * The answer of the full-information solver (`reply.solve`, op `solve`): its verdict, the
 * winning line as requests (`actions`), its length and how much it searched.
 * @typedef {object} SolveInfo
 * @property {"winnable" | "unwinnable" | "undecided"} status
 * @property {string} reason
 * @property {Request[]} actions
 * @property {number} moves
 * @property {number} positions
 * @property {number} elapsed
 */

/**
 * A progress message of op `solve`: positions seen and seconds so far.
 * @typedef {object} SolveProgress
 * @property {number} positions
 * @property {number} elapsed
 */

/**
 * A reply of the engine. `state` is present whenever the request reached a game; `saved` and
 * `events` with every successful action.
 * @typedef {object} Reply
 * @property {boolean} ok
 * @property {GameState} [state]
 * @property {string} [saved]
 * @property {GameEvent[]} [events]
 * @property {{code: string, message: string}} [error]
 * @property {HintInfo} [hint]
 * @property {ThinkInfo} [think]
 * @property {SolveInfo} [solve]
 * @property {Review} [review]
 * @property {Record<string, unknown>} [visible] what the player sees (op `visible`), for the server's "Think harder"
 * @property {boolean} [no_moves]
 * @property {string} [no_moves_status]
 * @property {{position: string, start: string}} [export]
 */

/**
 * Per-game bookkeeping kept with the saved game. `started`: an action was played (the timer
 * runs, a win is celebrated); `counted`: the game is in the statistics, which only happens when
 * the engine says it began at its deal's first layout (`state.from_deal_start`); `assisted`: the
 * solver played some of it.
 * @typedef {object} Meta
 * @property {number} elapsed
 * @property {boolean} started
 * @property {boolean} counted
 * @property {boolean} won
 * @property {boolean} assisted
 * @property {boolean} [practice] a practice game opened from a review: never counted
 */

/**
 * The saved game as stored (`rev` counts every save of every game of every tab, so that a tab
 * can tell a newer save from its own: see saving.js; `id` names the game).
 * @typedef {object} StoredGame
 * @property {string} saved
 * @property {GameState} state
 * @property {Meta} meta
 * @property {number} rev
 * @property {string} id
 * @property {number} updated when it was saved (ms since 1970; 0 when not known)
 */

/**
 * How a request came about: `kind` names the input for the latency marks, `t0` is when it
 * happened, `col` the column to shake on a refusal, `quiet` keeps refusals unsaid (the demo),
 * `boot` marks the first reply of the page; `pending` what the request is to the pending-action
 * log (saving.js: an action kept at once, or a request that replaces the game).
 * @typedef {object} Context
 * @property {string} [kind]
 * @property {number} [t0]
 * @property {number} [col]
 * @property {boolean} [quiet]
 * @property {boolean} [boot]
 * @property {boolean} [practice] opens a practice game (review.js): in no statistics
 * @property {"action" | "replace"} [pending]
 */

/**
 * The app state: the engine's latest view and saved game, the game's bookkeeping, and what the
 * page is doing.
 * @typedef {object} AppState
 * @property {GameState | null} game
 * @property {string | null} saved
 * @property {Meta} meta
 * @property {string} id      the current game's name for storage (changes with new/open)
 * @property {"loading" | "ready" | "error"} engine
 * @property {boolean} booted the first reply has been applied
 * @property {boolean} demo   the solver's line is playing
 * @property {boolean} noMoves the engine proved that no move is left in this position ("No more
 *   moves" was said); every new position starts without the verdict (nomoves.js asks again)
 */

/**
 * One change of the app state, as told to the listeners. `reply`/`req`/`ctx` are set when an
 * engine reply was applied. `started`: this action started the game; `won`: it won it;
 * `abandoned`: the game it replaced (with its bookkeeping), when one was replaced.
 * @typedef {object} Change
 * @property {AppState} state
 * @property {AppState} prev
 * @property {Reply} [reply]
 * @property {Request} [req]
 * @property {Context} [ctx]
 * @property {boolean} [started]
 * @property {boolean} [won]
 * @property {{game: GameState, meta: Meta} | null} [abandoned]
 */

/**
 * The options of a new deal (New game, the settings' `options`); `winnable` asks for a deal the
 * solver has won.
 * @typedef {object} GameOptions
 * @property {string} game
 * @property {number} suits
 * @property {string} rule
 * @property {string} scoring
 * @property {boolean} [winnable]
 */

/**
 * A section of the How to play pages (the locales' `help.*`): a heading, then paragraphs, a
 * list and a table (rows of cells, the first a heading).
 * @typedef {object} HelpSection
 * @property {string} h
 * @property {string[]} [p]
 * @property {string[]} [list]
 * @property {string[][]} [table]
 */

/**
 * A locale module's text (locales/*.js): strings with {placeholders}, plural forms keyed by the
 * categories of Intl.PluralRules, and the How to play pages.
 * @typedef {Record<string, string | Record<string, string> | HelpSection[]>} Strings
 */

export {};
