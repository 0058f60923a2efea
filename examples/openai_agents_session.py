"""An OpenAI Agents SDK agent on memgov: its conversation in a MemgovSession, its long-term memory through
memgov's write pipeline (a `remember` tool) and context (read before each turn). Runs offline: the model is
the SDK's ScriptedModel, which answers from a script instead of calling OpenAI.

    MEMGOV_URL=http://127.0.0.1:8000 MEMGOV_KEY=mg_… .venv/bin/python examples/openai_agents_session.py
"""

from __future__ import annotations

import asyncio
import json
import os
import uuid

from agents import Agent, Runner, function_tool
from agents.testing import ScriptedModel, assistant_message, function_call
from memgov_client import Client
from memgov_client.openai_agents import MemgovSession

URL = os.environ.get("MEMGOV_URL", "http://127.0.0.1:8000")
KEY = os.environ["MEMGOV_KEY"]
USER = os.environ.get("MEMGOV_USER", "alice")


async def main() -> dict:
    memgov = Client(URL, KEY)

    @function_tool
    def remember(fact: str) -> str:
        """Keep something the person asked you to remember; memgov decides, and says why."""
        decision = memgov.memories.write(
            content=fact,
            scope={"level": "user", "user_id": USER},
            source={"source_type": "explicit_user_request"},
        )
        return f"{decision['decision']} ({decision['reason_code']})"

    def instructions(_context, _agent) -> str:
        # The memory memgov lets this agent inject for the person, ranked and within a budget.
        context = memgov.memories.context(scope={"user_id": USER}, query="how to answer", token_budget=400)
        return "You are a helpful assistant.\n" + context["rendered"]

    model = ScriptedModel(
        [
            [function_call("remember", {"fact": "I prefer answers as tables."}, call_id="call-1")],
            [assistant_message("Noted: tables from now on.")],
            [assistant_message("| city | country |\n| Paris | France |")],
        ]
    )
    agent = Agent(name="assistant", model=model, instructions=instructions, tools=[remember])
    session = MemgovSession(f"example-{uuid.uuid4().hex[:8]}", base_url=URL, api_key=KEY, user_id=USER, app="example")

    first = await Runner.run(agent, "Remember that I prefer answers as tables.", session=session)
    second = await Runner.run(agent, "Where is Paris?", session=session)
    history = await session.get_items()
    prompt = model.last_call.input if model.last_call else []
    result = {
        "answers": [first.final_output, second.final_output],
        "memgov_session_id": session.memgov_session_id,
        "items_in_memgov": len(history),
        "second_turn_saw_first": any("tables" in json.dumps(item) for item in prompt),
        "memory_in_instructions": "tables" in instructions(None, None),
    }
    session.close()
    memgov.close()
    return result


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main())))
