import { useEffect, useState } from 'react';

/**
 * True while `active` is true and for `lingerMs` after it turns false, so a loading indicator does not
 * flicker on fast answers (000 §9: loading indicators stop 1 s after data is ready).
 */
export function useLingeringFlag(active: boolean, lingerMs: number): boolean {
  const [lingering, setLingering] = useState(active);
  useEffect(() => {
    if (active) {
      setLingering(true);
      return undefined;
    }
    const timer = setTimeout(() => setLingering(false), lingerMs);
    return () => clearTimeout(timer);
  }, [active, lingerMs]);
  return active || lingering;
}
