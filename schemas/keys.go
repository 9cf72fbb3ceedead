package schemas

// ShardKey methods give each row type a deterministic key that spreads rows over the
// shards of a table. Deterministic keys make retried bundles rewrite the same shard
// files (their names are content hashes) instead of adding duplicates.

func (r Problem) ShardKey() string        { return r.ID }
func (r Task) ShardKey() string           { return r.ProblemID }
func (r TranslationRow) ShardKey() string { return r.ProblemID }
func (r ExecutionRow) ShardKey() string   { return r.ProblemID }
func (r ResultRow) ShardKey() string      { return r.ProblemID }
func (r VerdictRow) ShardKey() string     { return r.ProblemID }
func (r ScoreRow) ShardKey() string       { return r.Translator + r.SrcLang + r.TgtLang }
func (r ErrorRow) ShardKey() string       { return r.ProblemID + r.Stage }
func (r FidelityRow) ShardKey() string    { return r.ProblemID }
