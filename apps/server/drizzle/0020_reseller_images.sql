CREATE TABLE "reseller_images" (
	"file_name" varchar(100) PRIMARY KEY NOT NULL,
	"content_base64" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
