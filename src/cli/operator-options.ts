/**
 * Command-line parsing shared by the operator commands: node:util parseArgs with strict checking, the
 * common flags (--url, --json, --help) and validators whose messages say what to type instead.
 */
import { parseArgs } from 'node:util';
import { parseTimeValueMillis } from '../common/time-value.js';

/** A bad command line: the runner prints the message and a pointer to --help, and exits 64. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;
export type OptionValues = Readonly<Record<string, string | boolean | undefined>>;

export const COMMON_OPTIONS: OptionSpecs = {
  url: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

export const COMMON_OPTIONS_HELP = `common options:
  --url URL     the node to talk to (default: $GANNET_URL, else http://127.0.0.1:9200);
                http://user:password@host:port sends basic authentication
  --json        print the node's JSON response as received instead of a table
  -h, --help    show this help`;

export interface CommandLine {
  values: OptionValues;
  positionals: string[];
}

/**
 * `--follow -Xy:12` -> `--follow=-Xy:12`: node ids are base64url and may start with '-', which parseArgs would take
 * for an option. A value-taking long option followed by a word that is not itself a `--` option keeps that word.
 */
function joinDashValues(args: readonly string[], options: OptionSpecs): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    const spec = arg.startsWith('--') && !arg.includes('=') ? options[arg.slice(2)] : undefined;
    if (spec?.type === 'string' && next !== undefined && next.startsWith('-') && !next.startsWith('--')) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

export function parseCommandLine(args: readonly string[], commandOptions: OptionSpecs, maxPositionals: number): CommandLine {
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: joinDashValues(args, { ...COMMON_OPTIONS, ...commandOptions }), options: { ...COMMON_OPTIONS, ...commandOptions }, strict: true, allowPositionals: true });
  } catch (err) {
    // parseArgs explains itself well ("Unknown option '--nodez'"); drop its hint about '--' which does not apply here.
    throw new UsageError((err as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
  if (parsed.positionals.length > maxPositionals) {
    const extra = parsed.positionals.slice(maxPositionals).map((value) => `[${value}]`).join(' ');
    throw new UsageError(`unexpected argument${parsed.positionals.length - maxPositionals > 1 ? 's' : ''} ${extra}`);
  }
  const values: Record<string, string | boolean | undefined> = {};
  for (const [key, value] of Object.entries(parsed.values)) {
    if (typeof value === 'string' || typeof value === 'boolean') values[key] = value;
  }
  return { values, positionals: parsed.positionals };
}

export function wantsHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

export function stringOption(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/** A string option that, when given, must not be blank (`--actions ''` is a typo, not "no filter"). */
export function nonEmptyOption(values: OptionValues, name: string): string | undefined {
  const value = stringOption(values, name);
  if (value !== undefined && value.trim() === '') throw new UsageError(`--${name} needs a value`);
  return value;
}

export function booleanOption(values: OptionValues, name: string): boolean {
  return values[name] === true;
}

/** --url, else $GANNET_URL, else the default. */
export function resolveUrl(values: OptionValues, env: Readonly<Record<string, string | undefined>>, fallback: string): string {
  const fromFlag = stringOption(values, 'url');
  if (fromFlag !== undefined) return fromFlag;
  const fromEnv = env['GANNET_URL'];
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : fallback;
}

const HEALTH_STATUSES = ['green', 'yellow', 'red'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

export function parseHealthStatus(value: string, flag: string): HealthStatus {
  const lower = value.toLowerCase();
  if ((HEALTH_STATUSES as readonly string[]).includes(lower)) return lower as HealthStatus;
  throw new UsageError(`--${flag} must be green, yellow or red, not [${value}]`);
}

/** An ES time value ("30s", "2m", "500ms") in milliseconds; the text is passed on to the node unchanged. */
export function parseTimeout(value: string, flag: string): number {
  let millis: number;
  try {
    millis = parseTimeValueMillis(value, flag);
  } catch {
    millis = Number.NaN;
  }
  if (!(millis >= 0)) throw new UsageError(`--${flag} must be a time value such as 30s, 2m or 500ms, not [${value}]`);
  return millis;
}

/** `<node_id>:<number>`. A bare number is the classic mistake (elastic/elasticsearch#33071): name the expected form. */
export function parseTaskId(value: string): string {
  if (/^[^\s:]+:\d+$/.test(value)) return value;
  throw new UsageError(`task id must look like <node_id>:<number> (as listed by "gannet tasks"), not [${value}]`);
}
