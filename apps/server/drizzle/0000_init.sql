CREATE TYPE "public"."audit_event_type" AS ENUM('SIGN_IN_SUCCEEDED', 'SIGN_IN_FAILED', 'SIGN_IN_THROTTLED', 'SIGNED_OUT', 'PASSWORD_CHANGED', 'PASSWORD_RESET_REQUESTED', 'PASSWORD_RESET', 'PROFILE_UPDATED');--> statement-breakpoint
CREATE TYPE "public"."customer_status" AS ENUM('ACTIVE', 'APPROVED', 'BLOCKED', 'SIGNUP_REQUESTED', 'SUSPENDED');--> statement-breakpoint
CREATE TYPE "public"."payment_method" AS ENUM('payfast', 'stripe', 'banktransfer');--> statement-breakpoint
CREATE TYPE "public"."role" AS ENUM('ROLE_BOLT_ADMIN_USER', 'ROLE_CUSTOMER_SUPER_ADMIN_USER', 'ROLE_CUSTOMER_ADMIN_USER', 'ROLE_CUSTOMER_USER');--> statement-breakpoint
CREATE TYPE "public"."user_status" AS ENUM('ACTIVE', 'INACTIVE');--> statement-breakpoint
CREATE TYPE "public"."action_type" AS ENUM('BACKUP_RUN', 'BACKUP_RESTORE', 'BACKUP_SNAPSHOT', 'BACKUP_SEED_CREATION', 'BACKUP_SEED_LOADING');--> statement-breakpoint
CREATE TYPE "public"."backup_type" AS ENUM('FILES_AND_FOLDERS', 'CPANEL', 'DIRECT_ADMIN');--> statement-breakpoint
CREATE TYPE "public"."machine_status" AS ENUM('ACTIVE', 'OVER_PER_MACHINE_QUOTA', 'SUSPENDED', 'PACKAGE_SUSPENDED', 'PACKAGE_OVER_QUOTA', 'BLOCKED');--> statement-breakpoint
CREATE TYPE "public"."message_type" AS ENUM('DEBUG', 'INFO', 'WARNING', 'ERROR');--> statement-breakpoint
CREATE TYPE "public"."os_family" AS ENUM('WINDOWS', 'LINUX', 'MAC');--> statement-breakpoint
CREATE TYPE "public"."package_request_status" AS ENUM('PENDING', 'APPROVED', 'DECLINED');--> statement-breakpoint
CREATE TYPE "public"."package_request_type" AS ENUM('NEW_SIGNUP', 'ADDITIONAL_PACKAGE', 'CHANGE_PACKAGE');--> statement-breakpoint
CREATE TYPE "public"."package_status" AS ENUM('REQUESTED', 'APPROVED', 'ACTIVE', 'OVER_QUOTA', 'SUSPENDED', 'BLOCKED');--> statement-breakpoint
CREATE TYPE "public"."run_status" AS ENUM('INITIATED', 'IN_PROGRESS', 'FAILED', 'FINISHED_SUCCESS', 'FINISHED_WARNINGS');--> statement-breakpoint
CREATE TYPE "public"."snapshot_storage_status" AS ENUM('AVAILABLE', 'BEING_DELETED', 'DELETED');--> statement-breakpoint
CREATE TYPE "public"."speed_unit" AS ENUM('KILO_BYTES_PER_SECOND', 'MEGA_BYTES_PER_SECOND', 'MEGA_BITS_PER_SECOND');--> statement-breakpoint
CREATE TYPE "public"."storage_quota_unit" AS ENUM('MB', 'GB', 'TB', 'PB');--> statement-breakpoint
CREATE TYPE "public"."task_status" AS ENUM('ACTIVE', 'PAUSED', 'AWAITING_SEED', 'BEING_DELETED', 'DELETION_FAILED');--> statement-breakpoint
CREATE TYPE "public"."time_unit" AS ENUM('MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR');--> statement-breakpoint
CREATE TYPE "public"."command_type" AS ENUM('RESTIC_COMMAND', 'RCLONE_COMMAND_SEQUENCE');--> statement-breakpoint
CREATE TYPE "public"."migration_status" AS ENUM('INITIALIZED', 'INITIAL_SYNC_IN_PROGRESS', 'INITIAL_SYNC_FINISHED_SUCCESS', 'INITIAL_SYNC_FAILED', 'FINAL_SYNC_IN_PROGRESS', 'FINAL_SYNC_FINISHED_SUCCESS', 'FINAL_SYNC_FAILED', 'ROLLED_BACK');--> statement-breakpoint
CREATE TYPE "public"."storage_account_type" AS ENUM('LOCAL', 'S3');--> statement-breakpoint
CREATE TYPE "public"."sync_type" AS ENUM('SYNC', 'FINAL_SYNC', 'MISCELLANEOUS');--> statement-breakpoint
CREATE TABLE "audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"type" "audit_event_type" NOT NULL,
	"user_id" integer,
	"customer_id" integer,
	"email" varchar(100),
	"ip_address" varchar(64),
	"detail" jsonb
);
--> statement-breakpoint
CREATE TABLE "billing_servers" (
	"id" serial PRIMARY KEY NOT NULL,
	"description" varchar(100) NOT NULL,
	"region" varchar(50) DEFAULT 'default' NOT NULL,
	"whmcs_host" varchar(255) NOT NULL,
	"whmcs_port" integer DEFAULT 443 NOT NULL,
	"whmcs_path" varchar(255) DEFAULT '/' NOT NULL,
	"whmcs_identifier" varchar(255) NOT NULL,
	"whmcs_secret_encrypted" text NOT NULL,
	"whmcs_api_access_key_encrypted" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_name" varchar(50) DEFAULT '' NOT NULL,
	"status" "customer_status" DEFAULT 'SIGNUP_REQUESTED' NOT NULL,
	"parent_reseller_customer_id" integer,
	"super_admin_user_id" integer,
	"whmcs_server_id" integer,
	"whmcs_client_id" integer,
	"payment_method" "payment_method" DEFAULT 'banktransfer' NOT NULL,
	"cpanel_plugin_enabled" boolean DEFAULT false NOT NULL,
	"allow_provider_machine_control" boolean DEFAULT false NOT NULL,
	"first_payment_required" boolean DEFAULT true NOT NULL,
	"unpaid_invoices" integer DEFAULT 0 NOT NULL,
	"being_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_reset_tokens" (
	"token_hash" varchar(64) PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "reseller_settings" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"reseller_enabled" boolean DEFAULT false NOT NULL,
	"brand_name" varchar(100),
	"custom_url" varchar(100),
	"support_email_address" varchar(50),
	"support_phone_number" varchar(50),
	"main_site_link" varchar(100),
	"terms_and_conditions_link" varchar(100),
	"logo" varchar(255),
	"favicon" varchar(255),
	"functional_background_colour" varchar(20),
	"functional_button_colour" varchar(20),
	"app_header_colour" varchar(20),
	"app_header_text_colour" varchar(20),
	"app_enabled_button_colour" varchar(20),
	"app_disabled_button_colour" varchar(20),
	"app_background_colour" varchar(20),
	"email_host" varchar(80),
	"email_port" integer,
	"email_username" varchar(80),
	"email_password_encrypted" text,
	"send_from_email_address" varchar(50)
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" varchar(64) PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"csrf_token" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ip_address" varchar(64),
	"user_agent" varchar(255)
);
--> statement-breakpoint
CREATE TABLE "sign_in_failures" (
	"key" varchar(200) PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer,
	"email" varchar(100) NOT NULL,
	"first_name" varchar(50) NOT NULL,
	"surname" varchar(50) NOT NULL,
	"contact_number" varchar(50) DEFAULT '' NOT NULL,
	"password_hash" text NOT NULL,
	"role" "role" NOT NULL,
	"status" "user_status" DEFAULT 'ACTIVE' NOT NULL,
	"read_only" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"password_changed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "backup_machines" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"backup_package_id" integer NOT NULL,
	"assigned_user_id" integer,
	"name" varchar(50) NOT NULL,
	"description" varchar(100) DEFAULT '' NOT NULL,
	"status" "machine_status" DEFAULT 'ACTIVE' NOT NULL,
	"os_family" "os_family" NOT NULL,
	"operating_system" varchar(100) DEFAULT '' NOT NULL,
	"desktop_client_version" varchar(50) DEFAULT '' NOT NULL,
	"time_zone" varchar(64) DEFAULT 'UTC' NOT NULL,
	"device_fingerprint" varchar(255),
	"ip_address" varchar(64),
	"no_of_simultaneous_remote_connections" integer DEFAULT 0 NOT NULL,
	"remote_management_enabled" boolean DEFAULT true NOT NULL,
	"credential_hash" varchar(128),
	"credential_revoked_at" timestamp with time zone,
	"repository_password_encrypted" text,
	"online" boolean DEFAULT false NOT NULL,
	"last_seen_at" timestamp with time zone,
	"used_space_bytes" bigint DEFAULT 0 NOT NULL,
	"being_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "backup_packages" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"name" varchar(50) NOT NULL,
	"status" "package_status" DEFAULT 'REQUESTED' NOT NULL,
	"template_id" integer,
	"package_quota_size_in_bytes" bigint NOT NULL,
	"max_backup_size_per_machine_in_mbs" bigint NOT NULL,
	"no_of_machines_limit" integer DEFAULT 0 NOT NULL,
	"storage_location_id" integer,
	"parent_reseller_package_id" integer,
	"up_or_down_grade_requested" boolean DEFAULT false NOT NULL,
	"requested_template_id" integer,
	"whmcs_service_id" integer,
	"being_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "backup_snapshots" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"backup_task_id" integer NOT NULL,
	"task_action_id" bigint,
	"restic_snapshot_id" varchar(64),
	"status" "run_status" DEFAULT 'IN_PROGRESS' NOT NULL,
	"storage_status" "snapshot_storage_status" DEFAULT 'AVAILABLE' NOT NULL,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "backup_tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"backup_machine_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"backup_package_id" integer NOT NULL,
	"name" varchar(50) NOT NULL,
	"type" "backup_type" DEFAULT 'FILES_AND_FOLDERS' NOT NULL,
	"status" "task_status" DEFAULT 'ACTIVE' NOT NULL,
	"schedule_cron" varchar(120) NOT NULL,
	"schedule_description" text DEFAULT '' NOT NULL,
	"snapshots_enabled" boolean DEFAULT true NOT NULL,
	"number_of_snapshots_to_keep" integer DEFAULT -1 NOT NULL,
	"auto_delete_failed_snapshots" boolean DEFAULT false NOT NULL,
	"sync_deletions" boolean DEFAULT false NOT NULL,
	"volume_snapshots_enabled" boolean DEFAULT false NOT NULL,
	"backup_items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"exclusions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"create_seed" boolean DEFAULT false NOT NULL,
	"path_to_seed_disk" varchar(255),
	"upload_bandwidth_limit" integer DEFAULT -1 NOT NULL,
	"upload_bandwidth_limit_unit" "speed_unit" DEFAULT 'KILO_BYTES_PER_SECOND' NOT NULL,
	"prune_after_count" integer DEFAULT -1 NOT NULL,
	"prune_time_unit" time_unit,
	"backup_any_new_available_items" boolean DEFAULT false NOT NULL,
	"status_of_last_run" "run_status",
	"status_of_run_before_last" "run_status",
	"last_execution_missed" boolean DEFAULT false NOT NULL,
	"next_run_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "log_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"backup_machine_id" integer NOT NULL,
	"file_name" varchar(255) NOT NULL,
	"last_modified" timestamp with time zone NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "machine_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"backup_machine_id" integer NOT NULL,
	"backup_task_id" integer,
	"task_action_id" bigint,
	"time" timestamp with time zone DEFAULT now() NOT NULL,
	"message_type" "message_type" NOT NULL,
	"message" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "package_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"request_type" "package_request_type" NOT NULL,
	"status" "package_request_status" DEFAULT 'PENDING' NOT NULL,
	"backup_package_id" integer,
	"requested_template_id" integer,
	"requested_by_user_id" integer,
	"first_approval_request" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "package_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_customer_id" integer,
	"name" varchar(100) NOT NULL,
	"storage_quota" bigint NOT NULL,
	"storage_quota_unit" "storage_quota_unit" DEFAULT 'GB' NOT NULL,
	"no_of_machines_limit" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_actions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"backup_task_id" integer NOT NULL,
	"backup_machine_id" integer NOT NULL,
	"type" "action_type" NOT NULL,
	"status" "run_status" DEFAULT 'INITIATED' NOT NULL,
	"time_started" timestamp with time zone DEFAULT now() NOT NULL,
	"time_finished" timestamp with time zone,
	"transfer_progress_percentage" integer DEFAULT 0 NOT NULL,
	"current_transfer" integer DEFAULT 0 NOT NULL,
	"total_transfers" integer DEFAULT 0 NOT NULL,
	"phase" text,
	"failure_message" text,
	"exit_code_result" text,
	"restic_snapshot_id" varchar(64),
	"bytes_added" bigint,
	"bytes_total" bigint,
	"snapshots_available" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_backup_packages" (
	"user_id" integer NOT NULL,
	"backup_package_id" integer NOT NULL,
	CONSTRAINT "user_backup_packages_user_id_backup_package_id_pk" PRIMARY KEY("user_id","backup_package_id")
);
--> statement-breakpoint
CREATE TABLE "access_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"storage_account_id" integer NOT NULL,
	"storage_user_id" integer NOT NULL,
	"key_id" varchar(128) NOT NULL,
	"secret_encrypted" text,
	"managed" boolean DEFAULT false NOT NULL,
	"customer_id" integer,
	"storage_location_id" integer,
	"backup_machine_id" integer,
	"task_action_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "buckets" (
	"id" serial PRIMARY KEY NOT NULL,
	"storage_account_id" integer NOT NULL,
	"name" varchar(63) NOT NULL,
	"managed" boolean DEFAULT false NOT NULL,
	"customer_id" integer,
	"policy" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "package_migrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"backup_package_id" integer NOT NULL,
	"source_storage_location_id" integer NOT NULL,
	"destination_storage_location_id" integer NOT NULL,
	"status" "migration_status" DEFAULT 'INITIALIZED' NOT NULL,
	"finalized" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finalized_at" timestamp with time zone,
	CONSTRAINT "package_migrations_distinct_locations" CHECK ("package_migrations"."source_storage_location_id" <> "package_migrations"."destination_storage_location_id")
);
--> statement-breakpoint
CREATE TABLE "realtime_command_output" (
	"command_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"line" text NOT NULL,
	CONSTRAINT "realtime_command_output_command_id_seq_pk" PRIMARY KEY("command_id","seq")
);
--> statement-breakpoint
CREATE TABLE "realtime_commands" (
	"id" serial PRIMARY KEY NOT NULL,
	"command_id" varchar(100) NOT NULL,
	"command_type" "command_type" NOT NULL,
	"backup_machine_id" integer,
	"package_migration_id" integer,
	"sync_type" "sync_type",
	"base_command" varchar(100) NOT NULL,
	"command_arguments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"command_flags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"time_started" timestamp with time zone DEFAULT now() NOT NULL,
	"time_finished" timestamp with time zone,
	"exit_code" integer,
	"result_code" text,
	CONSTRAINT "realtime_commands_one_target" CHECK (num_nonnulls("realtime_commands"."backup_machine_id", "realtime_commands"."package_migration_id") = 1)
);
--> statement-breakpoint
CREATE TABLE "storage_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(100) NOT NULL,
	"type" "storage_account_type" NOT NULL,
	"default_storage_account" boolean DEFAULT false NOT NULL,
	"endpoint" varchar(255),
	"iam_endpoint" varchar(255),
	"region" varchar(50),
	"force_path_style" boolean DEFAULT false NOT NULL,
	"access_key_id" varchar(128),
	"secret_access_key_encrypted" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "storage_locations" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"bucket_id" integer NOT NULL,
	"subfolder" varchar(255),
	"default_for_customer" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "storage_users" (
	"id" serial PRIMARY KEY NOT NULL,
	"storage_account_id" integer NOT NULL,
	"name" varchar(128) NOT NULL,
	"managed" boolean DEFAULT false NOT NULL,
	"customer_id" integer,
	"storage_location_id" integer,
	"backup_machine_id" integer,
	"task_action_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_parent_reseller_customer_id_customers_id_fk" FOREIGN KEY ("parent_reseller_customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_super_admin_user_id_users_id_fk" FOREIGN KEY ("super_admin_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_whmcs_server_id_billing_servers_id_fk" FOREIGN KEY ("whmcs_server_id") REFERENCES "public"."billing_servers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reseller_settings" ADD CONSTRAINT "reseller_settings_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_machines" ADD CONSTRAINT "backup_machines_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_machines" ADD CONSTRAINT "backup_machines_backup_package_id_backup_packages_id_fk" FOREIGN KEY ("backup_package_id") REFERENCES "public"."backup_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_machines" ADD CONSTRAINT "backup_machines_assigned_user_id_users_id_fk" FOREIGN KEY ("assigned_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_packages" ADD CONSTRAINT "backup_packages_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_packages" ADD CONSTRAINT "backup_packages_template_id_package_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."package_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_packages" ADD CONSTRAINT "backup_packages_storage_location_id_storage_locations_id_fk" FOREIGN KEY ("storage_location_id") REFERENCES "public"."storage_locations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_packages" ADD CONSTRAINT "backup_packages_parent_reseller_package_id_backup_packages_id_fk" FOREIGN KEY ("parent_reseller_package_id") REFERENCES "public"."backup_packages"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_packages" ADD CONSTRAINT "backup_packages_requested_template_id_package_templates_id_fk" FOREIGN KEY ("requested_template_id") REFERENCES "public"."package_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_snapshots" ADD CONSTRAINT "backup_snapshots_backup_task_id_backup_tasks_id_fk" FOREIGN KEY ("backup_task_id") REFERENCES "public"."backup_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_snapshots" ADD CONSTRAINT "backup_snapshots_task_action_id_task_actions_id_fk" FOREIGN KEY ("task_action_id") REFERENCES "public"."task_actions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_tasks" ADD CONSTRAINT "backup_tasks_backup_machine_id_backup_machines_id_fk" FOREIGN KEY ("backup_machine_id") REFERENCES "public"."backup_machines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_tasks" ADD CONSTRAINT "backup_tasks_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_tasks" ADD CONSTRAINT "backup_tasks_backup_package_id_backup_packages_id_fk" FOREIGN KEY ("backup_package_id") REFERENCES "public"."backup_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "log_files" ADD CONSTRAINT "log_files_backup_machine_id_backup_machines_id_fk" FOREIGN KEY ("backup_machine_id") REFERENCES "public"."backup_machines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_messages" ADD CONSTRAINT "machine_messages_backup_machine_id_backup_machines_id_fk" FOREIGN KEY ("backup_machine_id") REFERENCES "public"."backup_machines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_messages" ADD CONSTRAINT "machine_messages_backup_task_id_backup_tasks_id_fk" FOREIGN KEY ("backup_task_id") REFERENCES "public"."backup_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_messages" ADD CONSTRAINT "machine_messages_task_action_id_task_actions_id_fk" FOREIGN KEY ("task_action_id") REFERENCES "public"."task_actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_requests" ADD CONSTRAINT "package_requests_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_requests" ADD CONSTRAINT "package_requests_backup_package_id_backup_packages_id_fk" FOREIGN KEY ("backup_package_id") REFERENCES "public"."backup_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_requests" ADD CONSTRAINT "package_requests_requested_template_id_package_templates_id_fk" FOREIGN KEY ("requested_template_id") REFERENCES "public"."package_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_requests" ADD CONSTRAINT "package_requests_requested_by_user_id_users_id_fk" FOREIGN KEY ("requested_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_templates" ADD CONSTRAINT "package_templates_owner_customer_id_customers_id_fk" FOREIGN KEY ("owner_customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_actions" ADD CONSTRAINT "task_actions_backup_task_id_backup_tasks_id_fk" FOREIGN KEY ("backup_task_id") REFERENCES "public"."backup_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_actions" ADD CONSTRAINT "task_actions_backup_machine_id_backup_machines_id_fk" FOREIGN KEY ("backup_machine_id") REFERENCES "public"."backup_machines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_backup_packages" ADD CONSTRAINT "user_backup_packages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_backup_packages" ADD CONSTRAINT "user_backup_packages_backup_package_id_backup_packages_id_fk" FOREIGN KEY ("backup_package_id") REFERENCES "public"."backup_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_keys" ADD CONSTRAINT "access_keys_storage_account_id_storage_accounts_id_fk" FOREIGN KEY ("storage_account_id") REFERENCES "public"."storage_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_keys" ADD CONSTRAINT "access_keys_storage_user_id_storage_users_id_fk" FOREIGN KEY ("storage_user_id") REFERENCES "public"."storage_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_keys" ADD CONSTRAINT "access_keys_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_keys" ADD CONSTRAINT "access_keys_storage_location_id_storage_locations_id_fk" FOREIGN KEY ("storage_location_id") REFERENCES "public"."storage_locations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_keys" ADD CONSTRAINT "access_keys_backup_machine_id_backup_machines_id_fk" FOREIGN KEY ("backup_machine_id") REFERENCES "public"."backup_machines"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_keys" ADD CONSTRAINT "access_keys_task_action_id_task_actions_id_fk" FOREIGN KEY ("task_action_id") REFERENCES "public"."task_actions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buckets" ADD CONSTRAINT "buckets_storage_account_id_storage_accounts_id_fk" FOREIGN KEY ("storage_account_id") REFERENCES "public"."storage_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buckets" ADD CONSTRAINT "buckets_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_migrations" ADD CONSTRAINT "package_migrations_backup_package_id_backup_packages_id_fk" FOREIGN KEY ("backup_package_id") REFERENCES "public"."backup_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_migrations" ADD CONSTRAINT "package_migrations_source_storage_location_id_storage_locations_id_fk" FOREIGN KEY ("source_storage_location_id") REFERENCES "public"."storage_locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_migrations" ADD CONSTRAINT "package_migrations_destination_storage_location_id_storage_locations_id_fk" FOREIGN KEY ("destination_storage_location_id") REFERENCES "public"."storage_locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "realtime_command_output" ADD CONSTRAINT "realtime_command_output_command_id_realtime_commands_id_fk" FOREIGN KEY ("command_id") REFERENCES "public"."realtime_commands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "realtime_commands" ADD CONSTRAINT "realtime_commands_backup_machine_id_backup_machines_id_fk" FOREIGN KEY ("backup_machine_id") REFERENCES "public"."backup_machines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "realtime_commands" ADD CONSTRAINT "realtime_commands_package_migration_id_package_migrations_id_fk" FOREIGN KEY ("package_migration_id") REFERENCES "public"."package_migrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storage_locations" ADD CONSTRAINT "storage_locations_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storage_locations" ADD CONSTRAINT "storage_locations_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storage_users" ADD CONSTRAINT "storage_users_storage_account_id_storage_accounts_id_fk" FOREIGN KEY ("storage_account_id") REFERENCES "public"."storage_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storage_users" ADD CONSTRAINT "storage_users_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storage_users" ADD CONSTRAINT "storage_users_storage_location_id_storage_locations_id_fk" FOREIGN KEY ("storage_location_id") REFERENCES "public"."storage_locations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storage_users" ADD CONSTRAINT "storage_users_backup_machine_id_backup_machines_id_fk" FOREIGN KEY ("backup_machine_id") REFERENCES "public"."backup_machines"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storage_users" ADD CONSTRAINT "storage_users_task_action_id_task_actions_id_fk" FOREIGN KEY ("task_action_id") REFERENCES "public"."task_actions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_user_idx" ON "audit_events" USING btree ("user_id","at");--> statement-breakpoint
CREATE INDEX "audit_events_customer_idx" ON "audit_events" USING btree ("customer_id","at");--> statement-breakpoint
CREATE INDEX "customers_parent_idx" ON "customers" USING btree ("parent_reseller_customer_id");--> statement-breakpoint
CREATE INDEX "customers_status_idx" ON "customers" USING btree ("status");--> statement-breakpoint
CREATE INDEX "customers_company_name_idx" ON "customers" USING btree (lower("company_name"));--> statement-breakpoint
CREATE INDEX "password_reset_tokens_user_idx" ON "password_reset_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reseller_settings_custom_url_uq" ON "reseller_settings" USING btree (lower("custom_url"));--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_uq" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_customer_idx" ON "users" USING btree ("customer_id","surname","first_name");--> statement-breakpoint
CREATE INDEX "backup_machines_package_idx" ON "backup_machines" USING btree ("backup_package_id","name");--> statement-breakpoint
CREATE INDEX "backup_machines_customer_idx" ON "backup_machines" USING btree ("customer_id","name");--> statement-breakpoint
CREATE INDEX "backup_machines_user_idx" ON "backup_machines" USING btree ("assigned_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "backup_machines_credential_uq" ON "backup_machines" USING btree ("credential_hash");--> statement-breakpoint
CREATE INDEX "backup_packages_customer_idx" ON "backup_packages" USING btree ("customer_id","name");--> statement-breakpoint
CREATE INDEX "backup_packages_location_idx" ON "backup_packages" USING btree ("storage_location_id");--> statement-breakpoint
CREATE INDEX "backup_packages_parent_idx" ON "backup_packages" USING btree ("parent_reseller_package_id");--> statement-breakpoint
CREATE INDEX "backup_packages_status_idx" ON "backup_packages" USING btree ("status");--> statement-breakpoint
CREATE INDEX "backup_snapshots_task_idx" ON "backup_snapshots" USING btree ("backup_task_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "backup_snapshots_action_idx" ON "backup_snapshots" USING btree ("task_action_id");--> statement-breakpoint
CREATE UNIQUE INDEX "backup_snapshots_restic_uq" ON "backup_snapshots" USING btree ("backup_task_id","restic_snapshot_id");--> statement-breakpoint
CREATE INDEX "backup_tasks_machine_idx" ON "backup_tasks" USING btree ("backup_machine_id","name");--> statement-breakpoint
CREATE INDEX "backup_tasks_customer_idx" ON "backup_tasks" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "backup_tasks_package_idx" ON "backup_tasks" USING btree ("backup_package_id");--> statement-breakpoint
CREATE INDEX "backup_tasks_next_run_idx" ON "backup_tasks" USING btree ("next_run_at");--> statement-breakpoint
CREATE UNIQUE INDEX "log_files_machine_file_uq" ON "log_files" USING btree ("backup_machine_id","file_name");--> statement-breakpoint
CREATE INDEX "machine_messages_machine_idx" ON "machine_messages" USING btree ("backup_machine_id","time" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "machine_messages_task_idx" ON "machine_messages" USING btree ("backup_task_id");--> statement-breakpoint
CREATE INDEX "machine_messages_action_idx" ON "machine_messages" USING btree ("task_action_id");--> statement-breakpoint
CREATE INDEX "package_requests_status_idx" ON "package_requests" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "package_requests_customer_idx" ON "package_requests" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "package_requests_package_idx" ON "package_requests" USING btree ("backup_package_id");--> statement-breakpoint
CREATE INDEX "package_templates_owner_idx" ON "package_templates" USING btree ("owner_customer_id","name");--> statement-breakpoint
CREATE INDEX "task_actions_task_idx" ON "task_actions" USING btree ("backup_task_id","time_started" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "task_actions_machine_idx" ON "task_actions" USING btree ("backup_machine_id");--> statement-breakpoint
CREATE INDEX "task_actions_busy_idx" ON "task_actions" USING btree ("backup_machine_id") WHERE "task_actions"."status" in ('INITIATED', 'IN_PROGRESS');--> statement-breakpoint
CREATE INDEX "user_backup_packages_package_idx" ON "user_backup_packages" USING btree ("backup_package_id");--> statement-breakpoint
CREATE UNIQUE INDEX "access_keys_key_id_uq" ON "access_keys" USING btree ("key_id");--> statement-breakpoint
CREATE INDEX "access_keys_user_idx" ON "access_keys" USING btree ("storage_user_id");--> statement-breakpoint
CREATE INDEX "access_keys_account_idx" ON "access_keys" USING btree ("storage_account_id");--> statement-breakpoint
CREATE INDEX "access_keys_location_idx" ON "access_keys" USING btree ("storage_location_id");--> statement-breakpoint
CREATE INDEX "access_keys_machine_idx" ON "access_keys" USING btree ("backup_machine_id");--> statement-breakpoint
CREATE INDEX "access_keys_action_idx" ON "access_keys" USING btree ("task_action_id");--> statement-breakpoint
CREATE UNIQUE INDEX "buckets_account_name_uq" ON "buckets" USING btree ("storage_account_id","name");--> statement-breakpoint
CREATE INDEX "buckets_customer_idx" ON "buckets" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "package_migrations_package_idx" ON "package_migrations" USING btree ("backup_package_id","created_at");--> statement-breakpoint
CREATE INDEX "package_migrations_source_idx" ON "package_migrations" USING btree ("source_storage_location_id");--> statement-breakpoint
CREATE INDEX "package_migrations_destination_idx" ON "package_migrations" USING btree ("destination_storage_location_id");--> statement-breakpoint
CREATE UNIQUE INDEX "package_migrations_open_uq" ON "package_migrations" USING btree ("backup_package_id") WHERE not "package_migrations"."finalized" and "package_migrations"."status" <> 'ROLLED_BACK';--> statement-breakpoint
CREATE UNIQUE INDEX "realtime_commands_command_id_uq" ON "realtime_commands" USING btree ("command_id");--> statement-breakpoint
CREATE INDEX "realtime_commands_machine_idx" ON "realtime_commands" USING btree ("backup_machine_id","time_started");--> statement-breakpoint
CREATE INDEX "realtime_commands_migration_idx" ON "realtime_commands" USING btree ("package_migration_id","time_started");--> statement-breakpoint
CREATE UNIQUE INDEX "storage_accounts_name_uq" ON "storage_accounts" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "storage_accounts_default_uq" ON "storage_accounts" USING btree ("default_storage_account") WHERE "storage_accounts"."default_storage_account";--> statement-breakpoint
CREATE INDEX "storage_locations_customer_idx" ON "storage_locations" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "storage_locations_default_uq" ON "storage_locations" USING btree ("customer_id") WHERE "storage_locations"."default_for_customer";--> statement-breakpoint
CREATE UNIQUE INDEX "storage_locations_place_uq" ON "storage_locations" USING btree ("bucket_id",coalesce("subfolder", ''));--> statement-breakpoint
CREATE UNIQUE INDEX "storage_users_account_name_uq" ON "storage_users" USING btree ("storage_account_id","name");--> statement-breakpoint
CREATE INDEX "storage_users_customer_idx" ON "storage_users" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "storage_users_location_idx" ON "storage_users" USING btree ("storage_location_id");--> statement-breakpoint
CREATE INDEX "storage_users_machine_idx" ON "storage_users" USING btree ("backup_machine_id");--> statement-breakpoint
CREATE INDEX "storage_users_action_idx" ON "storage_users" USING btree ("task_action_id");