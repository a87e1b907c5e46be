import { type Actor, fullName, type InitialData } from '@portal/domain';
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import { readInitialData } from './initial-data';

interface SessionValue {
  data: InitialData;
  /** The signed-in user as the domain's permission rules see them; null when signed out. */
  actor: Actor | null;
  fullName: string;
}

const SessionContext = createContext<SessionValue | null>(null);

export function SessionProvider({ children, initial }: { children: ReactNode; initial?: InitialData }) {
  const value = useMemo<SessionValue>(() => {
    const data = initial ?? readInitialData();
    const user = data.user;
    return {
      data,
      actor: user
        ? {
            userId: user.id,
            role: user.role,
            customerId: user.customerId,
            resellerEnabled: user.resellerEnabled,
            boltCustomer: user.boltCustomer,
            readOnly: user.readOnly,
          }
        : null,
      fullName: user ? fullName(user) : '',
    };
  }, [initial]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}
