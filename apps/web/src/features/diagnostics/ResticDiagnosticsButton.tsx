export interface DiagnosticsMachine {
  id: number;
  name: string;
  customerId: number;
  backupPackageId: number;
}

// SKELETON (helper "diagnostics" replaces): the button that opens the restic diagnostics dialog (001 §2, §4).
export function ResticDiagnosticsButton(_props: { machine: DiagnosticsMachine }) {
  return null;
}
