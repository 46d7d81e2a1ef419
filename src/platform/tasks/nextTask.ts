/**
 * Yields to the page until its next task, so work split around it runs as two short tasks with
 * input, frames and the network's answers handled between them. A message to itself: not clamped
 * to 4 ms as nested timers are. Where there is no MessageChannel, a timer.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof MessageChannel === 'undefined') {
      setTimeout(resolve, 0)
      return
    }
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      resolve()
    }
    channel.port2.postMessage(null)
  })
}
