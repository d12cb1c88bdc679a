// Why a file a person writes did not parse: the service's config (server/config/load.ts)
// and the console's profiles (commands/settings.ts) say it one way.
/**
 * A parser's message without the text it quotes back: the line it is about may hold an
 * API key or a password, and the message goes to a log (a refused reload) or a terminal.
 * What is wrong and where (line and column) stay.
 */
export function parseProblem(message: string, text: string, json: boolean): string {
  // yaml: "<what> at line L, column C:" then the lines around it.
  if (!json) return message.split('\n')[0]!.replace(/:$/, '');
  // V8: '<what> in JSON at position N', or 'Unexpected token "x", "<the text>" is not valid JSON'.
  const at = / at position (\d+)/.exec(message)?.[1];
  const what = message.replace(/, (\.\.\.)?".*$/s, '').replace(/( in JSON)? at position \d+.*$/s, '');
  if (at === undefined) return what;
  const before = text.slice(0, Number(at)).split('\n');
  return `${what} at line ${before.length}, column ${before.at(-1)!.length + 1}`;
}
