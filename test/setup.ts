// Runs before every test file: a time zone that is neither IST nor UTC, so a
// stray Date conversion of a stored IST wall-clock time shows up as a failure.
process.env.TZ = 'America/Sao_Paulo'
