#!/usr/bin/env node
import { start } from './cli/main.js';

await start();
