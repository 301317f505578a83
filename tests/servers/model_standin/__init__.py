"""A deterministic model stand-in of our own: a loopback HTTP server that speaks the OpenAI
chat completions format (`POST …/chat/completions`) and the Anthropic Messages format
(`POST …/messages`), whole or streamed (SSE), with tool calls, and answers from a script.

Run it: `python -m tests.servers.model_standin --script FILE [--port N]`; it prints its base
URL (`http://127.0.0.1:PORT/v1`, good for both formats) on stdout and serves until killed.
In tests: `tests.helpers.model_standin.model_standin(script)`.

The script (JSON)::

    {
      "rules": [
        {
          "name": "adds",                      # optional: shown in `received`
          "when": {                            # every condition given must hold; {} always does
            "lastUserContains": "add",         # the last user text contains it (any case)
            "lastIsToolResult": false,         # the last message is (not) a tool result
            "toolResultContains": "5",         # the last message is a tool result holding it
            "toolResultsAtLeast": 1,           # tool results since the last user text
            "toolOffered": "add",              # a tool of this name (or "tab__add") is offered
            "systemContains": "terse",
            "format": "openai"                 # or "anthropic"
          },
          "reply": {
            "text": "The sum is {toolResult}", # {lastUser} and {toolResult} are filled in
            "toolCalls": [
              {"name": "add", "arguments": {"a": 2, "b": 3}},
              {"name": "add", "rawArguments": "{not json"}
            ],
            "cost": 0.0012                     # reported as usage.cost (OpenAI format)
          },
          "fault": {                           # optional, any one or several
            "delay": 5,                        # seconds before answering (for timeouts)
            "status": 429, "retryAfter": 7,    # an HTTP error (429, 500, 401, ...) and its header
            "message": "slow down",            # the error's message
            "malformedJson": true,             # a 200 whose body (or stream event) is not JSON
            "brokenStream": true,              # streamed: an event that is not JSON mid-way
            "cutStream": true,                 # streamed: the connection dropped mid-way
            "hugeBytes": 20000000,             # a text answer this long
            "ignoreStream": true,              # asked to stream, answers whole JSON anyway
            "errorEvent": "Overloaded"         # streamed: an error event mid-way
          }
        }
      ],
      "default": {"text": "..."}               # optional: the reply when no rule matches
    }

Rules are tried in order; the first whose `when` holds answers. They read only the request
(the conversation so far), never the stand-in's own history, so concurrent runs get the
same answers. A tool call's `name` is matched to the offered tools: "add" becomes "demo__add"
when that is the one offered; a name that no offered tool has is sent as it is (a model
calling a tool that does not exist). A model that loops: a rule that calls a tool whatever
the results say (e.g. `"when": {}` with `toolCalls`). With no rule matching, the answer is
"The tool said: <its result>" after a tool result, else "You said: <the last user text>".

Every request is recorded (`StandIn.received`: path, format, headers, body, the rule that
answered), so tests assert what came back to the model.
"""
