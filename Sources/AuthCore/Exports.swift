// A provider's id (`ProviderID`) lives with the other account facts in their own small module,
// so that the front of `authtui` can name accounts without linking AuthCore; it is part of
// AuthCore's API.
@_exported import AccountFacts
