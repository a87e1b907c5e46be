import { useQuery } from '@tanstack/react-query';
import { getResult } from '../../app/api';

export interface Profile {
  id: number;
  firstName: string;
  surname: string;
  email: string;
  contactNumber: string;
  role: string;
  roleName: string;
  companyName: string | null;
  readOnly: boolean;
}

export interface ActivityRow {
  id: number;
  at: string;
  type: string;
  ipAddress: string | null;
}

export const profileKeys = {
  all: ['profile'] as const,
  details: () => [...profileKeys.all, 'details'] as const,
  activity: () => [...profileKeys.all, 'activity'] as const,
};

export function useProfile() {
  return useQuery({ queryKey: profileKeys.details(), queryFn: () => getResult<Profile>('/profile') });
}
