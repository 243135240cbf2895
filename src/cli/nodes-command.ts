/** `gannet nodes`: GET /_cat/nodes as a table of each node's role, master marker, heap, RAM, CPU, load and disk. */
import { bytesCell, cell, expectCatRows, percentCell, type CatRow } from './cat-rows.js';
import { ExitCode } from './exit-codes.js';
import { writeRawJson, type CommandContext, type OperatorCommand } from './operator-command.js';
import { formatTable } from './text-table.js';

/** The _cat/nodes default columns (so habits transfer), plus id and disk, which an operator asks for next. */
export const NODES_COLUMNS = [
  'name',
  'id',
  'ip',
  'node.role',
  'master',
  'heap.percent',
  'ram.percent',
  'cpu',
  'load_1m',
  'load_5m',
  'load_15m',
  'disk.used_percent',
  'disk.avail',
  'disk.total',
] as const;

export const nodesCommand: OperatorCommand = {
  name: 'nodes',
  summary: 'one row per node: role, elected master, heap, ram, cpu, load, disk',
  help: `usage: gannet nodes [common options]

Shows GET /_cat/nodes: name, id, ip, roles (ES role letters), master (* = elected master),
heap % (V8 heap of the node process), ram % (includes the page cache, as in ES), cpu %, load
averages over 1, 5 and 15 minutes, disk used % and available/total on the data path.

exit codes:
  0 listed   3 node unreachable   4 other error   64 bad command line`,
  options: {},
  maxPositionals: 0,
  async run(context: CommandContext): Promise<number> {
    const response = await context.client.request('GET', '/_cat/nodes', { format: 'json', bytes: 'b', h: NODES_COLUMNS.join(',') });
    const rows = expectCatRows(response);
    if (context.json) writeRawJson(context.io, response.text);
    else context.io.stdout.write(renderNodesTable(rows));
    return ExitCode.ok;
  },
};

export function renderNodesTable(rows: readonly CatRow[]): string {
  const sorted = [...rows].sort((a, b) => cell(a, 'name').localeCompare(cell(b, 'name')));
  return formatTable(
    [
      { header: 'name' },
      { header: 'id' },
      { header: 'ip' },
      { header: 'role' },
      { header: 'master' },
      { header: 'heap', align: 'right' },
      { header: 'ram', align: 'right' },
      { header: 'cpu', align: 'right' },
      { header: 'load_1m', align: 'right' },
      { header: 'load_5m', align: 'right' },
      { header: 'load_15m', align: 'right' },
      { header: 'disk', align: 'right' },
      { header: 'disk.avail', align: 'right' },
      { header: 'disk.total', align: 'right' },
    ],
    sorted.map((row) => [
      cell(row, 'name'),
      cell(row, 'id'),
      cell(row, 'ip'),
      cell(row, 'node.role'),
      cell(row, 'master'),
      percentCell(row, 'heap.percent'),
      percentCell(row, 'ram.percent'),
      percentCell(row, 'cpu'),
      cell(row, 'load_1m'),
      cell(row, 'load_5m'),
      cell(row, 'load_15m'),
      percentCell(row, 'disk.used_percent'),
      bytesCell(row, 'disk.avail'),
      bytesCell(row, 'disk.total'),
    ]),
  );
}
