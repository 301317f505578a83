"""Collections of saved calls: the file, its assertions, the runner (Qt-free).

A collection is a plain JSON file kept next to a server's code (docs/collections.md): a
`version`, a `name`, and `calls`, each a saved tool call, resource read, prompt get,
completion or catalog entry with its assertions. The GUI (`ui/`), `mcp-inspector-qt test`
(`cli/commands/test.py`) and watch mode use this API:

File (`inspector.collections.file`)
    load_collection(path) -> Collection          raises CollectionError (`.source`,
    loads_collection(text, source) -> Collection   `.line`, `.where`, `.reason`;
                                                    str(): "FILE:LINE: WHERE: REASON")
    save_collection(path, collection)             atomic; raises OSError
    dumps_collection(collection) -> str           the exact text written

Model (`inspector.collections.collection`)
    Collection(name, calls, description)          .call(name) .add(call) -> the call as
                                                  added (renamed "x (2)" if taken)
                                                  .put(call) (replace by name) .remove(name)
                                                  .unique_name(base)
    SavedCall(name, kind, tool=, uri=, prompt=, ref=, argument=, context=, arguments=,
              timeout_ms=, answers=(SavedAnswer...), assertions=(Assertion...))
        kind: "tool" | "resource" | "prompt" | "completion" | "catalog"
        .method .target .params() .with_assertions(tuple)
    SavedAnswer(method, params, result=None, reject=None)   a recorded answer to an ask
    Assertions (frozen dataclasses, each .describe() and .to_json()):
        OutcomeAssertion(expect="ok"|"isError"|"error"|"timeout", code=None)
        PointerAssertion(pointer, op="equals"|"contains"|"matches"|"type", value)
        OutputSchemaAssertion()        SnapshotAssertion(snapshot, ignore=(), default_ignores=True)
        LatencyAssertion(max_ms)       ToolExistsAssertion(exists=True)
        InputSchemaAssertion(schema)
    A call without an OutcomeAssertion is expected to end "ok".

Running (`inspector.collections.runner`), over a connected `ServerConnection`
(inspector/core/server_connection.py; a ConnectionModel's `.server`):
    runner = CollectionRunner(session, timeout=30.0, env=os.environ, tools=None)
    await runner.run_call(call) -> CallResult
    await runner.run(collection, names=None, on_start=cb(call), on_result=cb(result))
        -> RunReport      (runner.stop(reason): the request in flight is cancelled,
                           its call ends "cancelled", no further call is sent; cancelling
                           the task also cancels it; the session's responder is restored)
    runner.forget_tools()      (the tool list is fetched once per runner, when needed)
    await run_collection(session, collection, timeout=, env=, on_result=) -> RunReport
  While a call that carries answers runs, `session.responder` is a ReplayResponder of its
  answers (restored after); other asks go to the session's own responder.

Results (`inspector.collections.results`)
    CallResult: .call .name .passed .cancelled .outcome (Outcome: .kind "ok"|"isError"|
        "error"|"timeout"|"failed"|"not-run"|"cancelled", .code, .message, .describe())
        .ms (None: not sent)
        .result .error .tool .assertions [AssertionResult] .failures .notes
        .line() .failure_text() .to_json()
    AssertionResult: .assertion .label .passed .message .changes (recording.diff.Change:
        .path .kind .old .new .describe(); for a failed snapshot or inputSchema)
    RunReport: .results .passed .failed .cancelled .ok .unreachable .connection_lost
        .stopped .exit_code (0/1/3/5; a stopped run .stop_exit, 130 by default)
        .summary() .to_json() .junit()
        .changes_since(previous_report) -> {name: "broke" | "fixed" | "new"}

Snapshots (`inspector.collections.snapshots`)
    update_call_snapshot(call, call_result, add=False) -> SavedCall
    update_snapshots(collection, results, names=None) -> [names changed]   (in place)

From a session (`inspector.collections.from_session`)
    collection_from_session(read_session(path), name="") -> SessionConversion
        (.collection, .era "legacy"|"modern", .notes: what was left out and why)

Save call (`inspector.collections.saving`)
    saved_call_for(method, params, name=None, result=None, error=None, answers=(),
                   snapshot=True, secrets={ENV: value}, other_secrets=(values,)) -> SavedCall
        (tools/call, resources/read, prompts/get, completion/complete; else ValueError)
    default_name(method, params) -> str
    answers.answers_during(frames, request_id) -> (SavedAnswer, ...)   the answers given to
        the server's asks during that request (frames: TrafficRecords or session events)
    secrets_for_profile(profile, secret_store) -> CallSecrets(.named, .other)
        (`inspector.collections.secrets`: the recorder's rules, for saved_call_for)
    "Save session as test collection": from_session.save_session_as_collection(
        session_path, collection_path, name="") -> SessionConversion

Secrets (`inspector.collections.env_refs`)
    secret_refs(value, {ENV_NAME: secret}, (other secrets,)) -> value with `${env:NAME}`
    (or the redaction mark) in place of each secret, for arguments before saving;
    resolve_env(value, env) (raises UnsetVariable).
"""
