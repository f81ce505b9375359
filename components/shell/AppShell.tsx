'use client';

import dynamic from 'next/dynamic';
import type { ReactNode } from 'react';

import Gate from './Gate';

const ShellRuntime = dynamic(() => import('./ShellRuntime'), { ssr: false });

/** The client boundary around every page: the auth gate now, the platform runtime after hydration. */
export default function AppShell({ children }: { children: ReactNode }) {
  return (
    <>
      <Gate>{children}</Gate>
      <ShellRuntime />
    </>
  );
}
