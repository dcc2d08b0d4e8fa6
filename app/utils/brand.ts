export const PRODUCT_NAME = "Management";
export const COMPANY_LINE = "PKS Trading & Logistics";
