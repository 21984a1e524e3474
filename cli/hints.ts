// The server's sentences are written for HTTP callers ("GET /catalog/search?q=… finds one"); on the
// command line each such hint names the `svc` command that does the same. Applied to every error
// sentence and to the reasons the hub gives for a version that is not live.
const AS_COMMANDS: Array<[RegExp, string]> = [
  [/POST \/hub\/tools\/([^\s/]+)\/check/g, 'svc hub check $1'],
  [/GET \/catalog\/search\?q=…/g, 'svc search WORDS'],
  [/GET \/catalog\/endpoints\/([^\s?]+)/g, 'svc show $1'],
];

export const asCommands = (text: string): string => AS_COMMANDS.reduce((t, [re, command]) => t.replace(re, command), text);
