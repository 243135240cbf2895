#!/usr/bin/env node
// Prints README's settings table from the node setting registry (run `npm run build` first).
// Paste the output between the settings-table markers in README.md; a unit test checks they agree.
import { renderSettingsTable, SETTINGS_TABLE_END, SETTINGS_TABLE_START } from '../dist/src/node/settings-table.js';

console.log([SETTINGS_TABLE_START, renderSettingsTable(), SETTINGS_TABLE_END].join('\n'));
