"""Machinery every task shares: the task itself (`task`), its command and
sweep (`command`, `sweep`), runs and rows (`runs`, `training`, `resume`,
`rows`, `units`), the papers' statistics (`stats`), the claims' rows
(`claim_rows`), report formatting (`formatting`), Keras registration
(`registration`) and the tables' lazy references to library classes
(`lazy`). Nothing here imports a task folder."""
