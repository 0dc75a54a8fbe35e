DROP INDEX `capability_grants_user_idx`;--> statement-breakpoint
DROP INDEX `warranty_claims_agreement_idx`;--> statement-breakpoint
DROP INDEX `finance_insurance_claims_coverage_idx`;