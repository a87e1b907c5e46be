import { MESSAGES } from '@portal/domain';
import { useId } from 'react';
import Card from 'react-bootstrap/Card';
import { LinkMachineButton } from '../machine-link/LinkMachineDialog';

const TEXT = MESSAGES.dashboard.nextSteps;

/**
 * What a customer account without machines sees instead of empty pies (issue 31): add a machine, whose button
 * opens the linking dialog with the install command for the visitor's system, then add a task on its page.
 */
export function NextSteps() {
  const headingId = useId();
  return (
    <Card as="section" className="mb-3" aria-labelledby={headingId} data-testid="next-steps">
      <Card.Body>
        <h2 id={headingId} className="h5">
          {TEXT.title}
        </h2>
        <p>{TEXT.intro}</p>
        <ol className="mb-0">
          <li className="mb-2">
            <span className="fw-semibold">{TEXT.addMachine}.</span> {TEXT.addMachineText}
            <div className="mt-1">
              <LinkMachineButton />
            </div>
          </li>
          <li>
            <span className="fw-semibold">{TEXT.addTask}.</span> {TEXT.addTaskText}
          </li>
        </ol>
      </Card.Body>
    </Card>
  );
}
