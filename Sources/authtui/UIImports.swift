// The interactive UI's files (UI/, reshaped separately for the App layer) use the types that
// moved to System and Commands; re-exported here so those files need no edit. Their own
// imports replace this.
@_exported import Commands
@_exported import System
