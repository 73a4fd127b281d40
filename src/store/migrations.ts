/**
 * Versioned schema: migration i brings the store from user_version i to i+1.
 * Append only; never edit a shipped migration.
 */
export const MIGRATIONS: readonly string[] = [
  `
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
  `,
  // 2: deadlines are found without scanning every conversation ever asked
  `CREATE INDEX conversations_expiry ON conversations(status, expires_at);`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
