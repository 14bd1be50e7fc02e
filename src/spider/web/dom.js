// @ts-check
// DOM helpers shared by the page's modules: finding the elements the markup always holds.

/**
 * The element matching `sel` under `root` (the document by default). The page's markup always
 * holds it: a missing element, or one that is not a `type` (HTMLElement when not given), throws.
 * @overload
 * @param {string} sel
 * @param {ParentNode} [root]
 * @returns {HTMLElement}
 */
/**
 * @template {Element} E
 * @overload
 * @param {string} sel
 * @param {ParentNode} root
 * @param {new (...args: never[]) => E} type
 * @returns {E}
 */
/**
 * @param {string} sel
 * @param {ParentNode} [root]
 * @param {new (...args: never[]) => Element} [type]
 * @returns {Element}
 */
export function $(sel, root = document, type = HTMLElement) {
  const el = root.querySelector(sel);
  if (!(el instanceof type)) throw new Error(`missing element ${sel}`);
  return el;
}
