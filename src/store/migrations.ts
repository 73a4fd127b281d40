/**
 * One step of the store's schema, known by its name (in the log and in an error) and its
 * position (migration i brings the store from user_version i to i+1). `sql` runs in one
 * transaction with the version bump; `outsideTransaction` is what SQLite refuses inside one (like
 * VACUUM), run on its own first: it must be safe to repeat, since a crash between it and the
 * bump runs it again.
 */
export type Migration = { readonly name: string } & ({ readonly sql: string } | { readonly outsideTransaction: string });

/**
 * Versioned schema, append only: never edit a shipped migration. What they add up to is written
 * out in schema.sql (a test holds the two equal): read that for the current tables.
 */
export const MIGRATIONS: readonly Migration[] = [
  // 1: agents, their sessions and stored output, conversations, the event log
  { name: "initial", sql: `
  CREATE TABLE agents (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    provider TEXT NOT NULL,
    status TEXT NOT NULL,
    prompt TEXT,
    command TEXT,
    model TEXT,
    cwd TEXT NOT NULL,
    worktree TEXT,
    branch TEXT,
    base_ref TEXT,
    permissions TEXT NOT NULL DEFAULT 'skip',
    token_hash TEXT NOT NULL UNIQUE,
    signal_file TEXT NOT NULL,
    env_json TEXT NOT NULL DEFAULT '{}',
    session INTEGER NOT NULL DEFAULT 0,
    provider_session_id TEXT,
    result TEXT,
    error TEXT,
    questions_json TEXT,
    exit_code INTEGER,
    cost_usd REAL,
    input_tokens INTEGER,
    output_tokens INTEGER,
    task_id TEXT,
    phase_id TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    last_activity_at INTEGER
  );
  CREATE TABLE agent_sessions (
    agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    session INTEGER NOT NULL,
    pid INTEGER,
    pid_start TEXT,
    stdout_path TEXT NOT NULL,
    stderr_path TEXT NOT NULL,
    exit_path TEXT NOT NULL,
    stdout_offset INTEGER NOT NULL DEFAULT 0,
    stderr_offset INTEGER NOT NULL DEFAULT 0,
    started_at INTEGER NOT NULL,
    ended_at INTEGER,
    exit_code INTEGER,
    PRIMARY KEY (agent_id, session)
  );
  CREATE TABLE agent_log_chunks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    session INTEGER NOT NULL,
    stream TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX agent_log_chunks_agent ON agent_log_chunks(agent_id, id);
  CREATE TABLE conversations (
    id TEXT PRIMARY KEY,
    from_id TEXT NOT NULL,
    from_name TEXT NOT NULL,
    to_id TEXT NOT NULL,
    to_name TEXT NOT NULL,
    question TEXT NOT NULL,
    answer TEXT,
    answered_by TEXT,
    status TEXT NOT NULL,
    task_id TEXT,
    phase_id TEXT,
    created_at INTEGER NOT NULL,
    expires_at INTEGER,
    answered_at INTEGER
  );
  CREATE INDEX conversations_to ON conversations(to_id, status, created_at);
  CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    type TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  ` },
  // 2: deadlines are found without scanning every conversation ever asked
  { name: "conversation-expiry", sql: `CREATE INDEX conversations_expiry ON conversations(status, expires_at);` },
  // 3: a per-agent cap on stored output. Each chunk records its size in bytes, and the index
  // holds it, so finding the oldest N bytes of an agent reads the index, never the data (rows
  // from before this migration have NULL and are measured from their data). agent_output keeps
  // each agent's total, kept in step by the same transactions that insert and drop chunks.
  { name: "output-cap", sql: `
  ALTER TABLE agent_log_chunks ADD COLUMN bytes INTEGER;
  CREATE INDEX agent_log_chunks_agent_bytes ON agent_log_chunks(agent_id, id, bytes);
  DROP INDEX agent_log_chunks_agent;
  CREATE TABLE agent_output (
    agent_id TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
    stored_bytes INTEGER NOT NULL DEFAULT 0,
    dropped_bytes INTEGER NOT NULL DEFAULT 0
  );
  INSERT INTO agent_output (agent_id, stored_bytes)
    SELECT agent_id, SUM(octet_length(data)) FROM agent_log_chunks GROUP BY agent_id;
  ` },
  // 4: dropped output gives its pages back to the file system (PRAGMA incremental_vacuum);
  // auto_vacuum of a store that already has tables only changes through a VACUUM.
  { name: "incremental-vacuum", outsideTransaction: "PRAGMA auto_vacuum = INCREMENTAL; VACUUM;" },
  // 5: the agent that spawned each agent (null: the person), for who may act on whom
  { name: "agent-parent", sql: `ALTER TABLE agents ADD COLUMN parent_id TEXT;
   CREATE INDEX agents_parent ON agents(parent_id);` },
  // 6: an agent's environment (API keys) lives in .troupe/agents/<id>/env.json, never here. Rows
  // written before are marked; the daemon moves each to its file once at start, blanks env_json
  // and vacuums (src/agents/files/saved-env.ts), since SQL alone cannot write files.
  { name: "env-out-of-store", sql: `ALTER TABLE agents ADD COLUMN legacy_env INTEGER NOT NULL DEFAULT 0;
   UPDATE agents SET legacy_env = 1;` },
  // 7: stops that outlive the daemon: each session's marker (found in /proc/*/environ), the
  // SIGKILL deadline of a stop under way, and the first signal a stop sent (its exit code when
  // the wrapper's own status is lost)
  { name: "stop-deadlines", sql: `ALTER TABLE agent_sessions ADD COLUMN marker TEXT;
   ALTER TABLE agent_sessions ADD COLUMN kill_at INTEGER;
   ALTER TABLE agent_sessions ADD COLUMN stop_signal INTEGER;
   CREATE INDEX agent_sessions_kill_at ON agent_sessions(kill_at) WHERE kill_at IS NOT NULL;` },
  // 8: the work model (src/work/): initiatives → phases (a DAG) → tasks (a DAG within a phase).
  // Task slugs are unique within their initiative so that \`<initiative>/<slug>\` names one task.
  // \`revise\` marks a rejected item its proposing agent was asked to propose again: that agent's
  // next proposal replaces it. An agent knows its mode and initiative.
  { name: "work-model", sql: `
  CREATE TABLE initiatives (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    slug TEXT NOT NULL UNIQUE,
    goal TEXT NOT NULL,
    proposed_goal TEXT,
    proposed_goal_by TEXT,
    status TEXT NOT NULL,
    base_ref TEXT NOT NULL,
    base_commit TEXT NOT NULL,
    branch TEXT NOT NULL,
    review TEXT NOT NULL,
    dispatch_json TEXT,
    version INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE TABLE phases (
    id TEXT PRIMARY KEY,
    initiative_id TEXT NOT NULL REFERENCES initiatives(id),
    slug TEXT NOT NULL,
    title TEXT NOT NULL,
    content TEXT NOT NULL,
    status TEXT NOT NULL,
    proposed_by TEXT,
    reason TEXT,
    revise INTEGER NOT NULL DEFAULT 0,
    version INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (initiative_id, slug)
  );
  CREATE TABLE phase_deps (
    phase_id TEXT NOT NULL REFERENCES phases(id) ON DELETE CASCADE,
    depends_on TEXT NOT NULL REFERENCES phases(id) ON DELETE CASCADE,
    PRIMARY KEY (phase_id, depends_on)
  );
  CREATE TABLE tasks (
    id TEXT PRIMARY KEY,
    initiative_id TEXT NOT NULL REFERENCES initiatives(id),
    phase_id TEXT NOT NULL REFERENCES phases(id) ON DELETE CASCADE,
    slug TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    status TEXT NOT NULL,
    proposed_by TEXT,
    agent_id TEXT,
    branch TEXT,
    summary TEXT,
    reason TEXT,
    conflicts_json TEXT,
    merged_at INTEGER,
    revise INTEGER NOT NULL DEFAULT 0,
    version INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (initiative_id, slug)
  );
  CREATE INDEX tasks_phase ON tasks(phase_id, created_at);
  CREATE TABLE task_deps (
    task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    depends_on TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    PRIMARY KEY (task_id, depends_on)
  );
  ALTER TABLE agents ADD COLUMN mode TEXT;
  ALTER TABLE agents ADD COLUMN initiative_id TEXT;
  ` },
  // 9: cleanup that never loses work: the branches troupe created (it never deletes one; gc lists
  // those no agent owns), an agent left with uncommitted changes and the session asked to commit
  // them, and the session a listener claimed a conversation in (it goes back to pending when that
  // session ends unanswered)
  { name: "cleanup-keeps-work", sql: `CREATE TABLE troupe_branches (
     branch TEXT PRIMARY KEY,
     agent_id TEXT,
     created_at INTEGER NOT NULL
   );
   INSERT OR IGNORE INTO troupe_branches (branch, agent_id, created_at)
     SELECT branch, id, created_at FROM agents WHERE branch IS NOT NULL;
   ALTER TABLE agents ADD COLUMN uncommitted INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE agents ADD COLUMN commit_asked_session INTEGER;
   ALTER TABLE conversations ADD COLUMN lease_session INTEGER;` },
  // 10: which mode agent sessions' outputs were imported, written in the transaction that stores
  // what they proposed: a daemon dying after that commit cannot import the same session twice
  { name: "mode-imports", sql: `CREATE TABLE mode_imports (
    agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    session INTEGER NOT NULL,
    imported_at INTEGER NOT NULL,
    PRIMARY KEY (agent_id, session)
  );` },
  // 11: the lifecycle: why the last run failed (class, evidence, attempt; JSON), when the next
  // attempt starts (a deadline in the store, so a restarted daemon carries on), the attempt
  // number, and each agent's budget and run limits
  { name: "lifecycle", sql: `ALTER TABLE agents ADD COLUMN failure_json TEXT;
   ALTER TABLE agents ADD COLUMN retry_at INTEGER;
   ALTER TABLE agents ADD COLUMN attempt INTEGER NOT NULL DEFAULT 1;
   ALTER TABLE agents ADD COLUMN budget_usd REAL;
   ALTER TABLE agents ADD COLUMN timeout_ms INTEGER;
   ALTER TABLE agents ADD COLUMN idle_timeout_ms INTEGER;
   CREATE INDEX agents_retry_at ON agents(retry_at) WHERE retry_at IS NOT NULL;` },
  // 12: messages and inboxes (src/messages/): seq orders them; `wake` says the sender may resume
  // the addressee; `session` is the run whose prompt carried it (requeued if that run never started)
  { name: "messages", sql: `CREATE TABLE messages (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    from_id TEXT NOT NULL,
    from_name TEXT NOT NULL,
    to_id TEXT NOT NULL,
    to_name TEXT NOT NULL,
    text TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'queued',
    wake INTEGER NOT NULL DEFAULT 0,
    session INTEGER,
    created_at INTEGER NOT NULL,
    delivered_at INTEGER
  );
  CREATE INDEX messages_to ON messages(to_id, status, seq);` },
  // 13: scheduled flows (src/flows/): their schedule and what their last run did; their environment
  // is a 0600 file (.troupe/flows/<id>/env.json), never the store
  { name: "flows", sql: `CREATE TABLE flows (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    cron TEXT NOT NULL,
    profile TEXT,
    provider TEXT,
    prompt TEXT NOT NULL,
    gate TEXT,
    enabled INTEGER NOT NULL DEFAULT 1,
    next_run_at INTEGER,
    last_run_at INTEGER,
    last_agent_id TEXT,
    last_outcome TEXT,
    created_at INTEGER NOT NULL
  );` },
  // 14: dispatch (src/work/dispatch.ts) keeps its state on the tasks it drives: the merge commit
  // that brought a task in, and the session of its agent asked to resolve a merge conflict (set
  // before that resume starts, so a daemon killed in between knows whether it started)
  { name: "dispatch-merges", sql: `ALTER TABLE tasks ADD COLUMN merge_commit TEXT;
   ALTER TABLE tasks ADD COLUMN resolve_session INTEGER;` },
  // 15: the user account (src/accounts/) each agent runs on; null: the spawning environment's
  { name: "agent-account", sql: `ALTER TABLE agents ADD COLUMN account_id TEXT;` },
  // 16: an initiative's budget (what it has spent is summed from its agents' cost_usd, never
  // stored twice) and why dispatch holds it (the budget spent)
  { name: "initiative-budget", sql: `ALTER TABLE initiatives ADD COLUMN budget_usd REAL;
   ALTER TABLE initiatives ADD COLUMN reason TEXT;` },
  // 17: permission requests (src/permissions/): a tool call waiting for the person, or decided by a
  // rule (kept for the log). The agent's tool_use id is the idempotency key: the permission tool
  // files again after a daemon restart and gets the same row. Each agent's own rules: those its
  // spawn resolved (flags, profile, initiative) and those "allow always" added; an initiative's
  // policy, which its dispatched agents inherit
  { name: "permissions", sql: `CREATE TABLE permission_requests (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    agent_id TEXT NOT NULL,
    agent_name TEXT NOT NULL,
    session INTEGER NOT NULL,
    tool_use_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    tool_name TEXT NOT NULL,
    input_json TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    decided_by TEXT,
    rule TEXT,
    reason TEXT,
    updated_input_json TEXT,
    created_at INTEGER NOT NULL,
    decided_at INTEGER,
    UNIQUE (agent_id, tool_use_id)
  );
  CREATE INDEX permission_requests_pending ON permission_requests(agent_id) WHERE status = 'pending';
  CREATE TABLE agent_permission_rules (
    agent_id TEXT NOT NULL,
    effect TEXT NOT NULL,
    rule TEXT NOT NULL,
    source TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (agent_id, effect, rule)
  );
  ALTER TABLE initiatives ADD COLUMN permissions_json TEXT;` },
  // 18: the status an attached agent returns to when the person's interactive CLI exits
  { name: "attached-from", sql: `ALTER TABLE agents ADD COLUMN attached_from TEXT;` },
  // 19: the signal the daemon wrote for a session (troupe signal): the session's end takes
  // this, never a file nobody sent through the daemon. A session still open at the upgrade was
  // started by a troupe that did not record signals: its file is read as it was then.
  {
    name: "session-signal",
    sql: `ALTER TABLE agent_sessions ADD COLUMN signal_json TEXT;
   ALTER TABLE agent_sessions ADD COLUMN signal_from_file INTEGER NOT NULL DEFAULT 0;
   UPDATE agent_sessions SET signal_from_file = 1 WHERE ended_at IS NULL;`,
  },
  // 20: the person's pending review of each agent's diff (src/reviews/): one row per comment,
  // anchored by file, side, line number, the line's text and its neighbours; sent, they go
  { name: "review-comments", sql: `CREATE TABLE review_comments (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    file TEXT NOT NULL,
    side TEXT NOT NULL,
    line INTEGER NOT NULL,
    section TEXT,
    code TEXT NOT NULL,
    context_json TEXT NOT NULL,
    text TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX review_comments_agent ON review_comments(agent_id, seq);` },
  // 21: lines written into running sessions' input streams (src/live/): what each carried, and
  // whether the CLI took it (its echo), so what it never took goes back when the session ends
  { name: "session-inputs", sql: `CREATE TABLE session_inputs (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    session INTEGER NOT NULL,
    message_seq INTEGER,
    conversation_id TEXT,
    line TEXT NOT NULL,
    written_at INTEGER NOT NULL,
    taken_at INTEGER
  );
  CREATE INDEX session_inputs_session ON session_inputs(agent_id, session);` },
  // 22: storing a line is one insert: each chunk carries its session's two file offsets and its
  // agent's appended total after it (see src/store/output-tally.ts), instead of an update of the
  // session row and of agent_output in every commit. agent_output keeps what was appended as of
  // the last drop (stored = appended − dropped); rows from before carry nulls and are read as then.
  { name: "offsets-in-chunks", sql: `ALTER TABLE agent_log_chunks ADD COLUMN stdout_to INTEGER;
  ALTER TABLE agent_log_chunks ADD COLUMN stderr_to INTEGER;
  ALTER TABLE agent_log_chunks ADD COLUMN appended INTEGER;
  ALTER TABLE agent_output RENAME COLUMN stored_bytes TO appended_bytes;
  UPDATE agent_output SET appended_bytes = appended_bytes + dropped_bytes;` },
  // 23: an agent's plan as it last reported it (ACP plan updates: src/agents/output/agent-metadata.ts)
  { name: "agent-plan", sql: `ALTER TABLE agents ADD COLUMN plan_json TEXT;` },
  // 24: what an agent's current session runs in (src/sandbox/): sandboxed or not, and why
  { name: "agent-sandbox", sql: `ALTER TABLE agents ADD COLUMN sandbox_json TEXT;` },
  // 25: the files a task owns (its `files:` globs; work/file-ownership.ts), and why dispatch holds a
  // ready task (another under way owns a file it needs)
  { name: "task-files", sql: `ALTER TABLE tasks ADD COLUMN files_json TEXT;
   ALTER TABLE tasks ADD COLUMN waiting TEXT;` },
  // 26: where dispatch placed a task in the workspace's pool of hosts and why, the host the person
  // pinned a task or phase to, and a remote task's agent (its name there, chosen before its spawn)
  { name: "task-hosts", sql: `ALTER TABLE tasks ADD COLUMN host TEXT;
   ALTER TABLE tasks ADD COLUMN placement TEXT;
   ALTER TABLE tasks ADD COLUMN pin TEXT;
   ALTER TABLE tasks ADD COLUMN host_agent TEXT;
   ALTER TABLE tasks ADD COLUMN lost_json TEXT NOT NULL DEFAULT '[]';
   ALTER TABLE phases ADD COLUMN pin TEXT;` },
  // 27: the pull request `troupe pr` (or `troupe initiative pr`) opened or found for a branch (src/publish/)
  { name: "pull-requests", sql: `ALTER TABLE agents ADD COLUMN pr_url TEXT;
   ALTER TABLE initiatives ADD COLUMN pr_url TEXT;` },
  // 28: the ports agents' worktrees hold (the config's `ports`: src/agents/start/ports.ts), one row a
  // port, so that no port is handed out twice while held, across restarts
  { name: "port-leases", sql: `CREATE TABLE port_leases (
    port INTEGER PRIMARY KEY,
    agent_id TEXT NOT NULL,
    slot INTEGER NOT NULL,
    leased_at INTEGER NOT NULL
  );
  CREATE INDEX port_leases_agent ON port_leases(agent_id, slot);` },
];

export const SCHEMA_VERSION = MIGRATIONS.length;
