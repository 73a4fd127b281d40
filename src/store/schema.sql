-- The store's schema as the migrations leave it (src/store/migrations.ts, version 28), written
-- from the table declarations in src/store/tables/ by `npm run docs:schema`: edit those, never this
-- file, and nothing runs it. tests/store/migrations.test.ts holds it equal to what the migrations
-- make of an empty store, and tests/store/tables/tables.test.ts each migration to the columns it adds.
-- A column's comment names the migration that added it when that was not the one creating its
-- table (columns added later sit at the end, in order).

PRAGMA auto_vacuum = INCREMENTAL; -- 4 incremental-vacuum: dropped output gives its pages back

-- Agents: one row each, with the state of its current run (its sessions are below).
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
  env_json TEXT NOT NULL DEFAULT '{}', -- blank: environments live in .troupe/agents/<id>/env.json (6)
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
  last_activity_at INTEGER,
  parent_id TEXT, -- 5 agent-parent: the agent that spawned it (null: the person)
  legacy_env INTEGER NOT NULL DEFAULT 0, -- 6 env-out-of-store: env_json still to move to its file
  mode TEXT, -- 8 work-model
  initiative_id TEXT, -- 8 work-model
  uncommitted INTEGER NOT NULL DEFAULT 0, -- 9 cleanup-keeps-work
  commit_asked_session INTEGER, -- 9 cleanup-keeps-work
  failure_json TEXT, -- 11 lifecycle: why the last run failed
  retry_at INTEGER, -- 11 lifecycle: when the next attempt starts
  attempt INTEGER NOT NULL DEFAULT 1, -- 11 lifecycle
  budget_usd REAL, -- 11 lifecycle
  timeout_ms INTEGER, -- 11 lifecycle
  idle_timeout_ms INTEGER, -- 11 lifecycle
  account_id TEXT, -- 15 agent-account: the user account it runs on
  attached_from TEXT, -- 18 attached-from: the status an attached agent returns to
  plan_json TEXT, -- 23 agent-plan: its plan as it last reported it (ACP plan updates)
  sandbox_json TEXT, -- 24 agent-sandbox: what its current session runs in (src/sandbox/)
  pr_url TEXT -- 27 pull-requests: its branch's pull request (troupe pr)
);
CREATE INDEX agents_parent ON agents(parent_id);
CREATE INDEX agents_retry_at ON agents(retry_at) WHERE retry_at IS NOT NULL;

-- Each run of an agent: its process, its output files and how far they are stored.
CREATE TABLE agent_sessions (
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  session INTEGER NOT NULL,
  pid INTEGER,
  pid_start TEXT,
  stdout_path TEXT NOT NULL,
  stderr_path TEXT NOT NULL,
  exit_path TEXT NOT NULL,
  stdout_offset INTEGER NOT NULL DEFAULT 0, -- since 22: as of when its agent's chunks moved on to another session; its newest chunk may say more
  stderr_offset INTEGER NOT NULL DEFAULT 0,
  started_at INTEGER NOT NULL,
  ended_at INTEGER,
  exit_code INTEGER,
  marker TEXT, -- 7 stop-deadlines: found in /proc/*/environ
  kill_at INTEGER, -- 7 stop-deadlines: the SIGKILL deadline of a stop under way
  stop_signal INTEGER, -- 7 stop-deadlines
  signal_json TEXT, -- 19 session-signal: the signal the daemon recorded for the run (what its end takes)
  signal_from_file INTEGER NOT NULL DEFAULT 0, -- 19 session-signal: a run open at the upgrade, read from its file
  PRIMARY KEY (agent_id, session)
);
CREATE INDEX agent_sessions_kill_at ON agent_sessions(kill_at) WHERE kill_at IS NOT NULL;

-- Stored output, whole lines, and each agent's total under its cap.
CREATE TABLE agent_log_chunks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  session INTEGER NOT NULL,
  stream TEXT NOT NULL, -- stdout, stderr, or troupe (troupe's own note: the cap's marker)
  data TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  bytes INTEGER, -- 3 output-cap: null in rows from before it
  stdout_to INTEGER, -- 22 offsets-in-chunks: the session's files stored to this far, after this chunk
  stderr_to INTEGER, -- 22 offsets-in-chunks
  appended INTEGER -- 22 offsets-in-chunks: the agent's bytes appended in all, after this chunk (stored = appended - dropped)
);
CREATE INDEX agent_log_chunks_agent_bytes ON agent_log_chunks(agent_id, id, bytes);
CREATE TABLE agent_output (
  agent_id TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
  appended_bytes INTEGER NOT NULL DEFAULT 0, -- 22 offsets-in-chunks (was stored_bytes): as of the last drop; newer chunks carry it
  dropped_bytes INTEGER NOT NULL DEFAULT 0
);

-- Questions between agents and the person.
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
  answered_at INTEGER,
  lease_session INTEGER -- 9 cleanup-keeps-work: the session a listener claimed it in
);
CREATE INDEX conversations_to ON conversations(to_id, status, created_at);
CREATE INDEX conversations_expiry ON conversations(status, expires_at);

-- Messages and inboxes.
CREATE TABLE messages (
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
CREATE INDEX messages_to ON messages(to_id, status, seq);

-- The lifecycle events clients replay from (output is not here: it lives in its chunks).
CREATE TABLE events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  type TEXT NOT NULL,
  payload TEXT NOT NULL, -- the event, whole (JSON), checked by its schema when replayed
  created_at INTEGER NOT NULL
);

-- The work model: initiatives, phases (a DAG), tasks (a DAG within a phase).
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
  updated_at INTEGER NOT NULL,
  budget_usd REAL, -- 16 initiative-budget
  reason TEXT, -- 16 initiative-budget: why dispatch holds it
  permissions_json TEXT, -- 17 permissions: the policy its dispatched agents inherit
  pr_url TEXT -- 27 pull-requests: its branch's pull request (troupe initiative pr)
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
  pin TEXT, -- 26 task-hosts: the host its tasks run on (troupe pin)
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
  merge_commit TEXT, -- 14 dispatch-merges
  resolve_session INTEGER, -- 14 dispatch-merges: the resume asked to resolve a conflict
  files_json TEXT, -- 25 task-files: the globs it owns; null: no list
  waiting TEXT, -- 25 task-files: why dispatch holds it though it is ready
  host TEXT, -- 26 task-hosts: the pool's host it was placed on
  placement TEXT, -- 26 task-hosts: why there
  pin TEXT, -- 26 task-hosts: the host the person pinned it to
  host_agent TEXT, -- 26 task-hosts: its agent's name on a remote host (chosen at the claim)
  lost_json TEXT NOT NULL DEFAULT '[]', -- 26 task-hosts: its runs on hosts lost mid-task
  UNIQUE (initiative_id, slug)
);
CREATE INDEX tasks_phase ON tasks(phase_id, created_at);
CREATE TABLE task_deps (
  task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  depends_on TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  PRIMARY KEY (task_id, depends_on)
);

-- Mode runs whose outputs were imported (once per session).
CREATE TABLE mode_imports (
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  session INTEGER NOT NULL,
  imported_at INTEGER NOT NULL,
  PRIMARY KEY (agent_id, session)
);

-- Branches troupe created (never deleted: gc lists those no agent owns).
CREATE TABLE troupe_branches (
  branch TEXT PRIMARY KEY,
  agent_id TEXT,
  created_at INTEGER NOT NULL
);

-- Scheduled flows (their environment is a 0600 file, never here).
CREATE TABLE flows (
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
);

-- Permission requests (one per tool call: the tool_use id is the key) and each agent's own rules.
CREATE TABLE permission_requests (
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

-- The person's pending review of an agent's diff: one row per comment, until it is sent (20 review-comments).
CREATE TABLE review_comments (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  file TEXT NOT NULL,
  side TEXT NOT NULL, -- new: an added or unchanged line's number; old: a removed line's
  line INTEGER NOT NULL,
  section TEXT, -- committed or uncommitted
  code TEXT NOT NULL, -- the line's text, without its marker
  context_json TEXT NOT NULL, -- {before, after}: the text of the lines of code around it
  text TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX review_comments_agent ON review_comments(agent_id, seq);

-- Lines written into running sessions' input streams (src/live/), until their session ends (21 session-inputs).
CREATE TABLE session_inputs (
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
CREATE INDEX session_inputs_session ON session_inputs(agent_id, session);

-- Ports held by agents' worktrees (the config's `ports`), from the worktree's creation to its removal.
CREATE TABLE port_leases (
  port INTEGER PRIMARY KEY, -- held once: the key refuses a second lease
  agent_id TEXT NOT NULL, -- no foreign key: taken before the agent is recorded
  slot INTEGER NOT NULL, -- 1 for PORT and TROUPE_PORT_1, 2 for TROUPE_PORT_2, ...
  leased_at INTEGER NOT NULL
);
CREATE INDEX port_leases_agent ON port_leases(agent_id, slot);
