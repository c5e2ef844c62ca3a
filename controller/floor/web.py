"""The floor view: one page for the pit supervisor, served by the floor service (Starlette, uvicorn, SSE).

``/`` is the page (plain HTML and JavaScript, no build step, nothing fetched
from outside); ``/api/tables``, ``/api/table/ID``, ``/api/links`` and
``/api/alarms`` answer the same queries as ``floor.<id>.query``;
``/events`` is a Server-Sent Events stream: every change on the floor (a
table's record, a link's meter, an alarm, the bus lost or back) as it is
applied. The page reloads the state it shows after every event batch (at
most ten times a second) and after any reconnect, so it recovers by itself
from a broker or a floor-service restart. It owns no state and submits nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any, AsyncIterator

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

PAGE = Path(__file__).with_name("floor_view.html")


def app_for(service: Any) -> Starlette:
    async def page(request: Request) -> Response:
        return HTMLResponse(PAGE.read_text(encoding="utf-8"))

    async def tables(request: Request) -> Response:
        return JSONResponse(service.answer({"what": "tables"}))

    async def table(request: Request) -> Response:
        answer = service.answer({"what": "table", "table": request.path_params["table"]})
        return JSONResponse(answer, status_code=404 if "error" in answer else 200)

    async def links(request: Request) -> Response:
        return JSONResponse(service.answer({"what": "links"}))

    async def alarms(request: Request) -> Response:
        return JSONResponse(service.answer({"what": "alarms"}))

    async def events(request: Request) -> Response:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        service.listeners.add(queue)

        async def stream() -> AsyncIterator[str]:
            try:
                yield "retry: 1000\n\n"
                while True:
                    try:
                        event = await asyncio.wait_for(queue.get(), 10.0)
                    except asyncio.TimeoutError:
                        yield ": still here\n\n"
                        continue
                    yield f"data: {json.dumps(event)}\n\n"
            finally:
                service.listeners.discard(queue)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    return Starlette(routes=[Route("/", page), Route("/api/tables", tables), Route("/api/table/{table}", table),
                             Route("/api/links", links), Route("/api/alarms", alarms), Route("/events", events)])


async def serve(service: Any, host: str, port: int) -> None:
    """Run the floor view on the service's loop until cancelled (the service owns the signals)."""
    config = uvicorn.Config(app_for(service), host=host, port=port, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    setattr(server, "capture_signals", contextlib.nullcontext)  # the floor service owns SIGTERM and SIGINT
    setattr(server, "install_signal_handlers", lambda: None)  # (older uvicorn)
    try:
        await server.serve()
    finally:
        server.should_exit = True
