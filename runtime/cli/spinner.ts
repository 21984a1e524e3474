// A spinner on stderr for anything that takes over a second, and only when stderr is a terminal:
// pipes, files and CI logs get nothing, so stdout and stderr stay parseable.
const FRAMES = ['|', '/', '-', '\\'];
const DELAY_MS = 1000;
const STEP_MS = 120;

export interface SpinnerStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

export async function spin<T>(label: string, work: Promise<T>, stream: SpinnerStream = process.stderr): Promise<T> {
  if (!stream.isTTY) return work;
  let frame = 0;
  let timer: NodeJS.Timeout | undefined;
  const delay = setTimeout(() => {
    timer = setInterval(() => stream.write(`\r${FRAMES[frame++ % FRAMES.length]} ${label}`), STEP_MS);
  }, DELAY_MS);
  try {
    return await work;
  } finally {
    clearTimeout(delay);
    if (timer) {
      clearInterval(timer);
      stream.write(`\r${' '.repeat(label.length + 2)}\r`);
    }
  }
}
