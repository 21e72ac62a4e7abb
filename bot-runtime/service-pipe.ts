/**
 * The bot's standard input, held open by the service that started it: the first line is the launch (job,
 * address, token), and the end of the stream means the service is gone (it stopped or crashed), so the bot
 * must not stay behind.
 */
export const readJobLine = (input: NodeJS.ReadableStream): Promise<string> =>
  new Promise((resolve) => {
    let buffered = '';
    const onData = (chunk: Buffer | string) => {
      buffered += chunk.toString();
      const newline = buffered.indexOf('\n');
      if (newline >= 0) finish(buffered.slice(0, newline));
    };
    const onEnd = () => finish(buffered);
    const finish = (line: string) => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.pause();
      resolve(line);
    };
    input.on('data', onData);
    input.on('end', onEnd);
  });

/** Calls `onGone` once when the service's end of the pipe closes. */
export const whenServiceGone = (input: NodeJS.ReadableStream & { readonly readableEnded?: boolean }, onGone: () => void): void => {
  if (input.readableEnded) return onGone();
  input.once('end', onGone);
  input.resume(); // nothing more is expected but the end
};
