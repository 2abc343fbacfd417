import type { PromoCodeInput } from './promo-codes.js';
import type { CategoryGroupInput, LoyaltyStore } from './store.js';

/** The demo category groups (`loyalty --demo`). */
export const DEMO_CATEGORY_GROUPS: readonly CategoryGroupInput[] = [
  {
    groupId: 'products',
    name: 'Favourite products: extra bonus on them',
    maxSelected: 3,
    position: 1,
    categories: [
      { categoryId: 'dairy', name: 'Dairy' },
      { categoryId: 'bakery', name: 'Bakery' },
      { categoryId: 'fruit', name: 'Fruit and vegetables' },
      { categoryId: 'meat', name: 'Meat' },
      { categoryId: 'fish', name: 'Fish' },
      { categoryId: 'drinks', name: 'Drinks' },
    ],
  },
  {
    groupId: 'cashback',
    name: 'Category of the month',
    maxSelected: 1,
    position: 2,
    categories: [
      { categoryId: 'pharmacy', name: 'Pharmacy' },
      { categoryId: 'cafe', name: 'Cafe' },
      { categoryId: 'household', name: 'Household' },
    ],
  },
];

/** The demo promo codes: bonus in kopecks; one expired, one single-use. */
export function demoPromoCodes(now: number): PromoCodeInput[] {
  return [
    { code: 'WELCOME100', bonusAmount: 10_000 },
    { code: 'ONCE500', bonusAmount: 50_000, maxRedemptions: 1 },
    { code: 'EXPIRED2024', bonusAmount: 10_000, expiresAt: new Date(Date.UTC(2024, 11, 31, 23, 59, 59)) },
    { code: 'WEEK50', bonusAmount: 5_000, expiresAt: new Date(now + 7 * 24 * 3600 * 1000) },
  ];
}

/**
 * Creates the demo groups and promo codes if missing (idempotent: a restart
 * on a kept `--data` folder changes nothing already there).
 */
export async function seedDemoProgram(store: LoyaltyStore, now: number): Promise<void> {
  const existing = new Set((await store.listGroups()).map((g) => g.groupId));
  for (const group of DEMO_CATEGORY_GROUPS) if (!existing.has(group.groupId)) await store.putCategoryGroup(group);
  for (const promo of demoPromoCodes(now)) await store.addPromoCodeIfMissing(promo);
}
