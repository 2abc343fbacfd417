import { describe, expect, it } from 'vitest';
import { attachNodeRoutes } from '../../../adapters/http-server/node-routes.js';
import { serveWhileBuilding } from '../../../adapters/http-server/serve-while-building.js';

const answering = (text: string) => ({ fetch: () => new Response(text) });

describe('serveWhileBuilding', () => {
  it('listens before the build ends when early, holding a request until the app is built', async () => {
    let finish!: () => void;
    const building = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let url: string | undefined;
    const serving = serveWhileBuilding(
      {
        port: 0,
        early: true,
        onListening: (u) => {
          url = u;
        },
      },
      async () => {
        await building;
        return answering('built');
      },
      (built) => built,
      async () => {},
    );
    await expect.poll(() => url).toBeDefined();
    const early = fetch(`${url}/anything`).then((r) => r.text());
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'starting' });
    finish();
    const { http } = await serving;
    try {
      expect(await early).toBe('built');
    } finally {
      await http.close();
    }
  });

  it('never listens when a late build fails, and undoes what the build opened', async () => {
    let listened = false;
    let undone = false;
    await expect(
      serveWhileBuilding(
        {
          port: 0,
          early: false,
          onListening: () => {
            listened = true;
          },
        },
        async () => {
          throw new Error('folder in use');
        },
        () => answering('x'),
        async () => {
          undone = true;
        },
      ),
    ).rejects.toThrow('folder in use');
    expect([listened, undone]).toEqual([false, true]);
  });

  it('serves the built app itself when late, its raw routes included', async () => {
    const app = answering('built');
    attachNodeRoutes(
      app,
      new Map([
        [
          '/raw',
          (_req, res) => {
            res.end('raw');
          },
        ],
      ]),
    );
    const { http } = await serveWhileBuilding(
      { port: 0, early: false },
      async () => app,
      (built) => built,
      async () => {},
    );
    try {
      expect(await (await fetch(`${http.url}/raw`, { method: 'POST' })).text()).toBe('raw');
      expect(await (await fetch(`${http.url}/other`)).text()).toBe('built');
    } finally {
      await http.close();
    }
  });

  it('undoes what the build opened when the late listen fails', async () => {
    const taken = await serveWhileBuilding(
      { port: 0, early: false },
      async () => answering('x'),
      (b) => b,
      async () => {},
    );
    let undone = false;
    try {
      const port = Number(new URL(taken.http.url).port);
      await expect(
        serveWhileBuilding(
          { port, early: false },
          async () => answering('y'),
          (b) => b,
          async () => {
            undone = true;
          },
        ),
      ).rejects.toThrow(/EADDRINUSE/);
      expect(undone).toBe(true);
    } finally {
      await taken.http.close();
    }
  });

  it('closes the early listener when the build fails', async () => {
    let url: string | undefined;
    await expect(
      serveWhileBuilding(
        {
          port: 0,
          early: true,
          onListening: (u) => {
            url = u;
          },
        },
        async () => {
          throw new Error('broken');
        },
        () => answering('x'),
        async () => {},
      ),
    ).rejects.toThrow('broken');
    await expect(fetch(`${url}/livez`)).rejects.toThrow();
  });
});
