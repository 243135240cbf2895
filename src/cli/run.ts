/** Process entry point: runs the `gannet` command with this process's arguments. */
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
