// A process started by offThread.ts's startLowProcess (offThread.test.ts): it answers the nice value
// of each of its threads, read from Linux's /proc, and ends.

import { readdirSync, readFileSync } from 'node:fs';

const niceOf = (tid: string) =>
  Number(readFileSync(`/proc/self/task/${tid}/stat`, 'latin1').split(') ')[1].split(' ')[16]);

process.send!(readdirSync('/proc/self/task').map(niceOf), () => process.exit(0));
