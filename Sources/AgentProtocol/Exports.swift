// The answers carry account facts (`AccountSummary`, `AccountName`): whoever speaks the
// protocol names them.
@_exported import AccountFacts
