/**
 * `gannet allocation`: GET /_cat/allocation as a table of shards and disk per data node, sizes in ES's
 * human units, and the UNASSIGNED row last when shard copies have no node.
 */
import { bytesCell, cell, expectCatRows, percentCell, type CatRow } from './cat-rows.js';
import { ExitCode } from './exit-codes.js';
import { writeRawJson, type CommandContext, type OperatorCommand } from './operator-command.js';
import { formatTable } from './text-table.js';

export const ALLOCATION_COLUMNS = [
  'node',
  'shards',
  'disk.indices',
  'disk.used',
  'disk.avail',
  'disk.total',
  'disk.percent',
  'host',
  'ip',
  'node.role',
] as const;

const UNASSIGNED = 'UNASSIGNED';

export const allocationCommand: OperatorCommand = {
  name: 'allocation',
  summary: 'shards and disk per data node, and the unassigned shard copies',
  help: `usage: gannet allocation [common options]

Shows GET /_cat/allocation: per data node the shard copies it holds, the disk used by indices
(disk.indices) and by everything on the file system (disk.used), available, total and used %.
A final UNASSIGNED row counts shard copies that have no node.

exit codes:
  0 listed   3 node unreachable   4 other error   64 bad command line`,
  options: {},
  maxPositionals: 0,
  async run(context: CommandContext): Promise<number> {
    const response = await context.client.request('GET', '/_cat/allocation', {
      format: 'json',
      bytes: 'b',
      h: ALLOCATION_COLUMNS.join(','),
    });
    const rows = expectCatRows(response);
    if (context.json) writeRawJson(context.io, response.text);
    else context.io.stdout.write(renderAllocationTable(rows));
    return ExitCode.ok;
  },
};

export function renderAllocationTable(rows: readonly CatRow[]): string {
  const isUnassigned = (row: CatRow) => cell(row, 'node') === UNASSIGNED;
  const sorted = [
    ...rows.filter((row) => !isUnassigned(row)).sort((a, b) => cell(a, 'node').localeCompare(cell(b, 'node'))),
    ...rows.filter(isUnassigned),
  ];
  return formatTable(
    [
      { header: 'node' },
      { header: 'shards', align: 'right' },
      { header: 'disk.indices', align: 'right' },
      { header: 'disk.used', align: 'right' },
      { header: 'disk.avail', align: 'right' },
      { header: 'disk.total', align: 'right' },
      { header: 'disk', align: 'right' },
      { header: 'host' },
      { header: 'ip' },
      { header: 'role' },
    ],
    sorted.map((row) => [
      cell(row, 'node'),
      cell(row, 'shards'),
      bytesCell(row, 'disk.indices'),
      bytesCell(row, 'disk.used'),
      bytesCell(row, 'disk.avail'),
      bytesCell(row, 'disk.total'),
      percentCell(row, 'disk.percent'),
      cell(row, 'host'),
      cell(row, 'ip'),
      cell(row, 'node.role'),
    ]),
  );
}
