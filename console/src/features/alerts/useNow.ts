import { useEffect, useState } from 'react';

/** Unix seconds now, updated every `everyMs`, so "open for 5 min" keeps counting. */
export function useNowSeconds(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Math.floor(Date.now() / 1000));
  useEffect(() => {
    const handle = setInterval(() => setNow(Math.floor(Date.now() / 1000)), everyMs);
    return () => clearInterval(handle);
  }, [everyMs]);
  return now;
}
