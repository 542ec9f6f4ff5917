// The read gate (issue 12): reads start in the check phase of an event-loop turn, at most `limit`
// per turn and `limit` at once, the rest in arrival order; a slot is handed on when a read ends,
// also when it fails. Routes that change the chain or the mempool are declared as such and bypass
// it; while a chain change runs, no waiting read starts.
import { describe, expect, it } from 'vitest';
import { ReadGate } from '../../ts/api/read_gate.js';
import { ROUTES } from '../../ts/api/routes/index.js';

/** One event-loop turn. */
const turn = () => new Promise((r) => setImmediate(r));
/** Two turns: a read freed in one turn hands its slot on in the next. */
const tick = async () => {
  await turn();
  await turn();
};

describe('ReadGate', () => {
  it('runs at most `limit` tasks at once, the others in arrival order', async () => {
    const gate = new ReadGate(2);
    const started: number[] = [];
    const release: (() => void)[] = [];
    const runs = [0, 1, 2, 3].map((i) =>
      gate.run(async () => {
        started.push(i);
        await new Promise<void>((r) => {
          release[i] = r;
        });
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(gate.queued).toBe(2);
    release[1]();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    release[0]();
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    release[2]();
    release[3]();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(gate.queued).toBe(0);
  });

  it('while a chain change runs, reads already running finish and new ones wait for its end', async () => {
    const gate = new ReadGate(2);
    const started: string[] = [];
    let endRead!: () => void, endWrite!: () => void;
    const read0 = gate.run(async () => {
      started.push('r0');
      await new Promise<void>((r) => {
        endRead = r;
      });
    });
    await tick();
    const write = gate.write(async () => {
      started.push('w');
      await new Promise<void>((r) => {
        endWrite = r;
      });
    });
    const read1 = gate.run(async () => {
      started.push('r1');
    });
    await tick();
    expect(started).toEqual(['r0', 'w']); // a free slot, yet r1 waits for the change
    endRead();
    await read0;
    await tick();
    expect(started).toEqual(['r0', 'w']);
    endWrite();
    await write;
    await read1;
    expect(started).toEqual(['r0', 'w', 'r1']);
  });

  it('starts at most `limit` reads per event-loop turn, however fast they end, and none synchronously', async () => {
    const gate = new ReadGate(2);
    const started: number[] = [];
    const runs = Array.from({ length: 7 }, (_, i) =>
      gate.run(async () => {
        started.push(i);
      }),
    );
    expect(started).toEqual([]);
    const perTurn: number[] = [];
    while (started.length < 7) {
      const before = started.length;
      await turn();
      perTurn.push(started.length - before);
    }
    expect(perTurn.every((n) => n <= 2)).toBe(true);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    await Promise.all(runs);
  });

  it('a failing task frees its slot', async () => {
    const gate = new ReadGate(1);
    await expect(
      gate.run(async () => {
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(await gate.run(async () => 7)).toBe(7);
  });
});

it('the routes that change the chain or the mempool skip the gate', () => {
  const changing = (kind: string) =>
    ROUTES.filter((r) => r.changes === kind)
      .map((r) => `${r.method} ${r.path}`)
      .sort();
  expect(changing('chain')).toEqual(['GET /debug/fakemine', 'GET /debug/fakemine/:address', 'GET /debug/rollback', 'POST /chain/append']);
  expect(changing('mempool')).toEqual(['GET /settings/mempool/minfee/:feeE8', 'POST /transaction/add']);
});
