"""The web table: ``rulebook serve`` (lobby, live tables with bots, replay, designer page).

Needs the ``[web]`` extra (Starlette, uvicorn, websockets).  :func:`create_app` builds the ASGI
application; :mod:`interpreter.web.serve` runs it.
"""
