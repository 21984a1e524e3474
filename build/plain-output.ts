// No ANSI colour codes when output goes to a file, a pipe or a log collector. The libraries that
// colour (citty's usage, vite's log) read NO_COLOR when they load, so an entry point imports this
// module before them. FORCE_COLOR still wins for whoever wants colours in a pipe.
if (!(process.stdout.isTTY && process.stderr.isTTY) && !process.env.FORCE_COLOR) process.env.NO_COLOR = '1';
