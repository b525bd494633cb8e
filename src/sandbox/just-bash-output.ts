/**
 * The output of one just-bash command kept for its result: the first half of the cap and the latest
 * half, with the middle cut (as capOutput does), so a command printing without end cannot fill memory.
 */
export class OutputBuffer {
  private head = '';
  private tail = '';
  private cut = 0;
  constructor(private readonly max: number) {}

  append(text: string): void {
    const half = Math.floor(this.max / 2);
    let rest = text;
    if (this.head.length < half) {
      const room = half - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (!rest) return;
    this.tail += rest;
    const keep = this.max - half;
    if (this.tail.length > keep * 2) {
      const drop = this.tail.length - keep;
      this.cut += drop;
      this.tail = this.tail.slice(drop);
    }
  }

  text(): { text: string; truncated: boolean } {
    const keep = this.max - Math.floor(this.max / 2);
    let tail = this.tail;
    let cut = this.cut;
    if (tail.length > keep) {
      cut += tail.length - keep;
      tail = tail.slice(tail.length - keep);
    }
    if (cut === 0) return { text: this.head + tail, truncated: false };
    return { text: `${this.head}\n\n... [${cut} characters of output cut] ...\n\n${tail}`, truncated: true };
  }
}
