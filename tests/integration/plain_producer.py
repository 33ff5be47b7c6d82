"""A producer that knows nothing of sudoku-batch: Celery's public API, and kombu (Celery's own
messaging library) for the few messages Celery itself would never send.

Started by tests/integration/test_push.py as its own process (`python plain_producer.py`),
so nothing of the project is imported here, on purpose: this is what a user's application
does to push puzzles to the workers (docs/guide/application.md).

    python plain_producer.py BROKER_URL QUEUE PLAN.json [RESULT_BACKEND_URL TIMEOUT]

PLAN.json is a list of messages, each one of:

- {"args": [...], "kwargs": {...}}: `app.send_task("sudoku.solve", args, kwargs)` (and
  "task_id", when given);
- {"body": <JSON>}: a message with the task's headers whose body is this JSON value;
- {"text": "..."}: a message with the task's headers whose body is this text, sent as
  application/json though it is not JSON.

Prints a JSON list: the task id of each message, in order. With a result backend it waits
for the result of each `send_task` message (`AsyncResult.get`) and prints a JSON list of
[task id, result] pairs instead (result is null for the raw messages).
"""

from __future__ import annotations

import json
import sys
import uuid
from typing import Any

from celery import Celery
from kombu import Exchange, Queue

TASK = "sudoku.solve"


def publish_raw(app: Celery, queue: str, body: Any) -> str:
    """One message with a `sudoku.solve` task's headers and a body Celery would not write:
    a JSON value, or bytes labelled JSON that are not."""
    task_id = str(uuid.uuid4())
    declared = Queue(queue, Exchange(queue, type="direct"), routing_key=queue)
    with app.producer_or_acquire() as producer:
        producer.publish(
            body,
            exchange=declared.exchange,
            routing_key=queue,
            declare=[declared],
            headers={"lang": "py", "task": TASK, "id": task_id, "root_id": task_id},
            **(
                {"content_type": "application/json", "content_encoding": "utf-8"}
                if isinstance(body, bytes)
                else {"serializer": "json"}
            ),
        )
    return task_id


def send(app: Celery, queue: str, plan: list[dict[str, Any]]) -> list[Any]:
    sent: list[Any] = []
    with app.producer_or_acquire() as producer:
        for item in plan:
            if "body" in item:
                sent.append(publish_raw(app, queue, item["body"]))
            elif "text" in item:
                sent.append(publish_raw(app, queue, item["text"].encode()))
            else:
                sent.append(
                    app.send_task(
                        TASK,
                        args=item.get("args"),
                        kwargs=item.get("kwargs"),
                        queue=queue,
                        task_id=item.get("task_id"),
                        producer=producer,
                    )
                )
    return sent


def main() -> None:
    broker, queue, plan_path = sys.argv[1:4]
    backend = sys.argv[4] if len(sys.argv) > 4 else None
    timeout = float(sys.argv[5]) if len(sys.argv) > 5 else 60.0
    app = Celery("plain_producer", broker=broker, backend=backend)
    app.conf.task_serializer = "json"
    app.conf.result_serializer = "json"
    app.conf.accept_content = ["json"]
    with open(plan_path) as source:
        plan = json.load(source)
    sent = send(app, queue, plan)
    if backend is None:
        out: Any = [item if isinstance(item, str) else item.id for item in sent]
    else:
        out = [
            [item, None] if isinstance(item, str) else [item.id, item.get(timeout=timeout)]
            for item in sent
        ]
    json.dump(out, sys.stdout)
    app.close()


if __name__ == "__main__":
    main()
