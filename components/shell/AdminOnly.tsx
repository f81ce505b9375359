'use client';

import type { ReactNode } from 'react';

import { useAuth } from '@/lib/auth/auth-store';

/** Shows its (server-rendered) children only while the signed-in user is an admin. */
export default function AdminOnly({ children }: { children: ReactNode }) {
  const { isAdmin } = useAuth();
  return isAdmin ? children : null;
}
