// Where the vault lives is part of the vault's API, and lives in its own small module so that
// the front of `authtui` can name the vault without linking SQLite and OpenSSL.
@_exported import Locations
