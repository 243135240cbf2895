/** ES's HeaderWarning: deprecation messages as `Warning` headers (`299 Elasticsearch-<version>-<build> "<message>"`). */
import type { NodeServices } from './context.js';

/** One `Warning` value per message, joined as a list (as HTTP allows); undefined when there is none. */
export function warningHeaders(services: NodeServices, warnings: readonly string[]): Record<string, string> | undefined {
  if (warnings.length === 0) return undefined;
  const prefix = `299 Elasticsearch-${services.version.number}-${services.version.buildHash}`;
  return { Warning: warnings.map((warning) => `${prefix} "${warning.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(', ') };
}
