/**
 * What buying backup needs from the billing system (WHMCS), per customer. A call that fails (slow, wrong,
 * down, the product missing) throws an AppError whose message says so; nothing is half done on the portal's
 * side, because the service calls these before it writes.
 */
export interface PurchaseBilling {
  /** Each billing host server (its id and region) with its products' prices by name; null where the server fails. */
  catalogue(): Promise<Array<{ serverId: number; region: string; prices: ReadonlyMap<string, string | null> | null }>>;
  /**
   * Orders the product named like the template for the customer: null when the customer is not billed
   * (a reseller's customer, or no billing server).
   */
  order(customerId: number, productName: string): Promise<BillingOrder | null>;
  /** Changes a billed service to the product named like the template; null when the customer is not billed. */
  upgrade(customerId: number, serviceId: number, productName: string): Promise<BillingOrder | null>;
  /** Whether the invoice is paid, asked of the customer's billing server. */
  invoicePaid(customerId: number, invoiceId: number): Promise<boolean>;
}

export interface BillingOrder {
  orderId: number;
  invoiceId: number | null;
  /** The billing service the order created (a purchase), kept on the package for its later changes. */
  serviceId: number | null;
}
