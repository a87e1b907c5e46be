import type { PackageStatus } from '@portal/domain';
import { DAY_MS, HOUR_MS } from '@portal/domain';
import { backupPackages, packageRequests, packageTemplates, userBackupPackages } from '../db/schema/index.js';
import {
  type CustomerInfo,
  customerNamed,
  inChunks,
  type PackageInfo,
  type PackageSpec,
  type SeedContext,
  type TemplateInfo,
  zip,
} from './context.js';
import { MB, type ParentKey, RESELLERS, TEMPLATES, UNIT_MBS } from './data.js';

/** Main package status of active customers in turn (a different length, so combinations vary). */
const ACTIVE_PACKAGE_STATUSES: readonly PackageStatus[] = [
  'ACTIVE',
  'ACTIVE',
  'ACTIVE',
  'OVER_QUOTA',
  'ACTIVE',
  'ACTIVE',
  'SUSPENDED',
  'ACTIVE',
  'ACTIVE',
  'ACTIVE',
  'BLOCKED',
];

function ownerId(customers: readonly CustomerInfo[], owner: ParentKey): number | null {
  if (owner === 'provider') return null;
  const reseller = RESELLERS.find((r) => r.key === owner);
  return reseller ? customerNamed(customers, reseller.companyName).id : null;
}

/** The package templates by name. */
export type Templates = ReadonlyMap<string, TemplateInfo>;

/** The provider's templates and each reseller's own. */
export async function insertTemplates(ctx: SeedContext, customers: readonly CustomerInfo[]): Promise<Templates> {
  const ids = await ctx.tx
    .insert(packageTemplates)
    .values(
      TEMPLATES.map((t) => ({
        ownerCustomerId: ownerId(customers, t.owner),
        name: t.name,
        storageQuota: t.storageQuota,
        storageQuotaUnit: t.storageQuotaUnit,
        noOfMachinesLimit: t.noOfMachinesLimit,
        resellersOnly: t.resellersOnly ?? false,
        createdAt: ctx.ago(1100 * DAY_MS),
      })),
    )
    .returning({ id: packageTemplates.id });
  const templates = new Map<string, TemplateInfo>();
  for (const [t, { id }] of zip(TEMPLATES, ids)) {
    templates.set(t.name, {
      id,
      owner: t.owner,
      name: t.name,
      quotaMb: t.storageQuota * UNIT_MBS[t.storageQuotaUnit],
      machineLimit: t.noOfMachinesLimit,
    });
  }
  return templates;
}

function template(templates: Templates, name: string): TemplateInfo {
  const found = templates.get(name);
  if (!found) throw new Error(`demo template ${name} missing`);
  return found;
}

function offeredTemplates(templates: Templates, customer: CustomerInfo): TemplateInfo[] {
  return [...templates.values()].filter(
    (t) => t.owner === customer.parent && t.name !== 'Reseller 20 TB' && t.quotaMb > 1024,
  );
}

/** Resellers' wholesale packages first (their customers' packages live inside them), then the customers'. */
export async function insertPackages(
  ctx: SeedContext,
  customers: readonly CustomerInfo[],
  templates: Templates,
): Promise<void> {
  const rng = ctx.rng;
  const wholesale = new Map<ParentKey, PackageInfo>();
  let serviceId = 5000;
  const spec = (
    customer: CustomerInfo,
    name: string,
    status: PackageStatus,
    template: TemplateInfo,
    extra: Partial<PackageSpec> = {},
  ): PackageSpec => {
    const hasStorage = status !== 'REQUESTED';
    const limitPerMachine = rng.chance(0.55) && template.quotaMb >= 4096;
    return {
      customer,
      name,
      status,
      template,
      perMachineMb: limitPerMachine
        ? Math.max(1024, Math.floor(template.quotaMb / Math.max(2, template.machineLimit || 4)))
        : template.quotaMb,
      locationId: hasStorage ? customer.locationId : null,
      parentPackageId: hasStorage ? (wholesale.get(customer.parent)?.id ?? null) : null,
      requestedTemplate: null,
      whmcsServiceId: customer.parent === 'provider' && hasStorage ? serviceId++ : null,
      createdAt: new Date(customer.createdAt.getTime() + rng.int(0, 3) * DAY_MS),
      ...extra,
    };
  };

  // Resellers' own packages first: their customers' packages live inside them.
  const resellerSpecs = RESELLERS.map((r) =>
    spec(
      customerNamed(customers, r.companyName),
      'Wholesale storage',
      'ACTIVE',
      template(templates, 'Reseller 20 TB'),
      {
        perMachineMb: template(templates, 'Reseller 20 TB').quotaMb,
        parentPackageId: null,
      },
    ),
  );
  const resellerPackages = await insertPackageSpecs(ctx, resellerSpecs);
  for (const [reseller, pkg] of zip(RESELLERS, resellerPackages)) wholesale.set(reseller.key, pkg);

  const specs: PackageSpec[] = [];
  const contoso = customerNamed(customers, 'Contoso Ltd');
  specs.push(
    spec(contoso, 'Head office', 'ACTIVE', template(templates, 'Northwind Pro 1 TB'), { perMachineMb: 200 * 1024 }),
    spec(contoso, 'Branch offices', 'ACTIVE', template(templates, 'Northwind Basic 100 GB'), {
      perMachineMb: 40 * 1024,
      requestedTemplate: template(templates, 'Northwind Pro 1 TB'),
    }),
  );
  let activeIndex = 0;
  let suspendedIndex = 0;
  for (const customer of customers) {
    if (customer.reseller || customer === contoso) continue;
    const offered = offeredTemplates(templates, customer);
    const main = rng.pick(offered);
    switch (customer.status) {
      case 'SIGNUP_REQUESTED':
        specs.push(spec(customer, main.name, 'REQUESTED', main));
        break;
      case 'APPROVED':
        specs.push(spec(customer, main.name, 'APPROVED', main));
        break;
      case 'BLOCKED':
        specs.push(spec(customer, main.name, 'BLOCKED', main));
        break;
      case 'SUSPENDED':
        specs.push(spec(customer, main.name, suspendedIndex++ % 2 === 0 ? 'ACTIVE' : 'SUSPENDED', main));
        break;
      case 'ACTIVE': {
        const status = ACTIVE_PACKAGE_STATUSES[activeIndex++ % ACTIVE_PACKAGE_STATUSES.length] ?? 'ACTIVE';
        const upgrade = status === 'ACTIVE' && rng.chance(0.2) ? rng.pick(offered.filter((t) => t !== main)) : null;
        specs.push(spec(customer, main.name, status, main, { requestedTemplate: upgrade }));
        if (rng.chance(0.3))
          specs.push(spec(customer, rng.pick(['Servers', 'Laptops', 'Branch office']), 'ACTIVE', rng.pick(offered)));
        if (rng.chance(0.2)) {
          const extra = rng.pick(offered);
          specs.push(spec(customer, `Extra ${extra.name}`.slice(0, 50), 'REQUESTED', extra));
        }
        break;
      }
    }
  }
  await insertPackageSpecs(ctx, specs);
}

async function insertPackageSpecs(ctx: SeedContext, specs: PackageSpec[]): Promise<PackageInfo[]> {
  const ids = await ctx.tx
    .insert(backupPackages)
    .values(
      specs.map((s) => ({
        customerId: s.customer.id,
        name: s.name,
        status: s.status,
        templateId: s.template.id,
        packageQuotaSizeInBytes: s.template.quotaMb * MB,
        maxBackupSizePerMachineInMbs: s.perMachineMb,
        noOfMachinesLimit: s.template.machineLimit,
        storageLocationId: s.locationId,
        parentResellerPackageId: s.parentPackageId,
        upOrDownGradeRequested: s.requestedTemplate !== null,
        requestedTemplateId: s.requestedTemplate?.id ?? null,
        whmcsServiceId: s.whmcsServiceId,
        createdAt: s.createdAt,
      })),
    )
    .returning({ id: backupPackages.id });
  return zip(specs, ids).map(([s, { id }]) => {
    const info: PackageInfo = { ...s, id, quotaBytes: s.template.quotaMb * MB, machines: 0 };
    s.customer.packages.push(info);
    return info;
  });
}

/** Which users may use which package. */
export type PackageLink = typeof userBackupPackages.$inferInsert;

/** Package requests (pending, approved and declined) and the users' links to packages. */
export async function insertRequestsAndLinks(
  ctx: SeedContext,
  customers: readonly CustomerInfo[],
  templates: Templates,
): Promise<PackageLink[]> {
  const rng = ctx.rng;
  const requests: (typeof packageRequests.$inferInsert)[] = [];
  const links: PackageLink[] = [];
  for (const customer of customers) {
    const superAdmin = customer.users.find((u) => u.role === 'ROLE_CUSTOMER_SUPER_ADMIN_USER');
    customer.packages.forEach((p, index) => {
      const first = index === 0 && !customer.reseller;
      if (p.status === 'REQUESTED') {
        requests.push({
          customerId: customer.id,
          requestType: first ? 'NEW_SIGNUP' : 'ADDITIONAL_PACKAGE',
          status: 'PENDING',
          backupPackageId: p.id,
          requestedTemplateId: p.template.id,
          requestedByUserId: superAdmin?.id ?? null,
          firstApprovalRequest: first,
          createdAt: first ? customer.createdAt : ctx.ago(rng.int(1, 72) * HOUR_MS),
        });
        return;
      }
      if (first) {
        requests.push({
          customerId: customer.id,
          requestType: 'NEW_SIGNUP',
          status: 'APPROVED',
          backupPackageId: p.id,
          requestedTemplateId: p.template.id,
          requestedByUserId: superAdmin?.id ?? null,
          firstApprovalRequest: true,
          createdAt: customer.createdAt,
          decidedAt: new Date(customer.createdAt.getTime() + rng.int(1, 30) * HOUR_MS),
        });
      }
      if (p.requestedTemplate) {
        requests.push({
          customerId: customer.id,
          requestType: 'CHANGE_PACKAGE',
          status: 'PENDING',
          backupPackageId: p.id,
          requestedTemplateId: p.requestedTemplate.id,
          requestedByUserId: superAdmin?.id ?? null,
          createdAt: ctx.ago(rng.int(2, 96) * HOUR_MS),
        });
      }
      for (const user of customer.users) {
        if (user.role === 'ROLE_CUSTOMER_SUPER_ADMIN_USER') continue;
        if (index === 0 || rng.chance(0.6)) links.push({ userId: user.id, backupPackageId: p.id });
      }
    });
    // Some history: an additional package the provider or reseller turned down.
    if (customer.status === 'ACTIVE' && !customer.reseller && rng.chance(0.15)) {
      const declined = rng.pick(offeredTemplates(templates, customer));
      requests.push({
        customerId: customer.id,
        requestType: 'ADDITIONAL_PACKAGE',
        status: 'DECLINED',
        requestedTemplateId: declined.id,
        requestedByUserId: superAdmin?.id ?? null,
        createdAt: ctx.ago(rng.int(20, 60) * DAY_MS),
        decidedAt: ctx.ago(rng.int(5, 19) * DAY_MS),
      });
    }
  }
  await inChunks(requests, (chunk) =>
    ctx.tx.insert(packageRequests).values(chunk).returning({ id: packageRequests.id }),
  );
  await inChunks(links, (chunk) =>
    ctx.tx.insert(userBackupPackages).values(chunk).returning({ userId: userBackupPackages.userId }),
  );
  return links;
}
