// SKELETON (helper "agent-install" replaces): the desktop-app user manual (000 §1).
export function ManualPage() {
  return <h1>Desktop app user manual</h1>;
}
