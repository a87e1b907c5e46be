/**
 * Gathers items and sends them in batches: at most `maxItems` (and `maxBytes` by `sizeOf`) per batch, at least every
 * `intervalMs` while items are waiting. Realtime command output and file search matches go out through it.
 */
export class Batcher<T> {
  private items: T[] = [];
  private bytes = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly send: (items: T[]) => void,
    private readonly options: { maxItems: number; intervalMs: number; maxBytes?: number; sizeOf?: (item: T) => number },
  ) {}

  add(item: T): void {
    const size = this.options.sizeOf?.(item) ?? 0;
    if (this.items.length > 0 && this.bytes + size > (this.options.maxBytes ?? Number.POSITIVE_INFINITY)) this.flush();
    this.items.push(item);
    this.bytes += size;
    if (this.items.length >= this.options.maxItems) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.options.intervalMs);
      this.timer.unref?.();
    }
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.items.length === 0) return;
    const batch = this.items;
    this.items = [];
    this.bytes = 0;
    this.send(batch);
  }
}
