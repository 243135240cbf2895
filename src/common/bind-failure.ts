/**
 * Why a listening socket could not be opened, in the words an operator acts on (ES: "BindHttpException: Failed to
 * bind to 127.0.0.1:9200 ... Address already in use"). Shared by the HTTP and transport servers.
 */
export function bindFailureMessage(what: 'HTTP' | 'transport', host: string, low: number, high: number, cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  const ports = low === high ? `${low}` : `${low}-${high}`;
  let reason: string;
  switch (code) {
    case 'EADDRINUSE':
      reason = low === high ? 'the port is already in use' : 'every port of the range is already in use';
      break;
    case 'EADDRNOTAVAIL':
      reason = `[${host}] is not an address of this machine (check network.host)`;
      break;
    case 'EACCES':
      reason = 'permission denied (ports below 1024 need privileges)';
      break;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      reason = `the host name [${host}] does not resolve (check network.host)`;
      break;
    default:
      reason = cause instanceof Error ? cause.message : String(cause);
  }
  return `failed to bind ${what} to [${host}:${ports}]: ${reason}`;
}
