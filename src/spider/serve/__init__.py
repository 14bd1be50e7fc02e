"""The web server (``spider serve``) and the static site (``spider build-site``).

- :mod:`spider.serve.app`: the Starlette application and :func:`~spider.serve.app.serve`;
- :mod:`spider.serve.static`, :mod:`spider.serve.headers`: the files and the headers they carry;
- :mod:`spider.serve.site`, :mod:`spider.serve.host_config`: the static site and its nginx, Caddy
  and ``_headers`` configurations;
- :mod:`spider.serve.engine_zip`, :mod:`spider.serve.bytecode`, :mod:`spider.serve.pyodide_runtime`:
  what the page's Web Worker loads (the engine's sources, their bytecode, Pyodide);
- :mod:`spider.serve.sync`, :mod:`spider.serve.syncstore`, :mod:`spider.serve.rate_limit`: the sync
  service and its storage;
- :mod:`spider.serve.listen`, :mod:`spider.serve.http_protocol`, :mod:`spider.serve.request_limits`,
  :mod:`spider.serve.start`: sockets, HTTP limits and the page's first game.

It runs on CPython only (Starlette and uvicorn); nothing outside it imports it but the command line.
"""
