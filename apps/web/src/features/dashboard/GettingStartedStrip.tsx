import { brandLinks, gettingStartedComplete, gettingStartedSteps, MESSAGES } from '@portal/domain';
import { useId } from 'react';
import Card from 'react-bootstrap/Card';
import { useSession } from '../../app/session';
import { useGettingStarted } from './queries';

const TEXT = MESSAGES.dashboard.gettingStarted;

/**
 * The getting-started strip of customer accounts (000 §2): registered, pay (direct customers only),
 * install the client and link a machine, add the first backup task. The current step is the first
 * incomplete one; the strip goes away once every step is done (or when the flags cannot be read). The
 * install step links to the downloads (the desktop-app user manual, with the agent's downloads; issue 14) and
 * the pay step to the pricing (000 §6): the reseller's for its customers, else the provider's.
 */
export function GettingStartedStrip({ enabled }: { enabled: boolean }) {
  const headingId = useId();
  const flags = useGettingStarted(enabled);
  const { data } = useSession();
  const links = brandLinks(data.branding, data.providerSiteUrl);
  if (!enabled || !flags.data || gettingStartedComplete(flags.data)) return null;
  const steps = gettingStartedSteps(flags.data);
  return (
    <Card as="section" className="mb-3" aria-labelledby={headingId} data-testid="getting-started">
      <Card.Body className="py-2">
        <h2 id={headingId} className="h6 mb-2">
          {TEXT.title}
        </h2>
        <ol className="list-unstyled d-flex flex-wrap gap-3 mb-0">
          {steps.map((s, index) => (
            <li
              key={s.step}
              aria-current={s.current ? 'step' : undefined}
              className={`d-flex align-items-center gap-2${s.current ? ' fw-semibold' : s.done ? ' text-muted' : ''}`}
            >
              <span
                aria-hidden="true"
                className={`badge rounded-pill ${s.done ? 'text-bg-success' : s.current ? 'text-bg-primary' : 'text-bg-light border'}`}
              >
                {s.done ? '✓' : index + 1}
              </span>
              <span>{TEXT[s.step]}</span>
              {s.step === 'LINK_MACHINE' && (
                <a href={links.downloads} className="small fw-normal">
                  {MESSAGES.agentInstall.manualLink}
                </a>
              )}
              {s.step === 'PAYMENT' && links.pricing && (
                <a href={links.pricing} className="small fw-normal" target="_blank" rel="noreferrer">
                  {TEXT.pricing}
                </a>
              )}
              {s.done && <span className="visually-hidden">({TEXT.done})</span>}
              {s.current && <span className="visually-hidden">({TEXT.current})</span>}
            </li>
          ))}
        </ol>
      </Card.Body>
    </Card>
  );
}
