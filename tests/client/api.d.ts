// Generated from /api/v1/openapi.json by `npm run openapi:types`; do not edit.

export interface paths {
    "/api/v1/branches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List branches
         * @description **Who:** Signed in. API tokens with the `read` scope (or `export`) too.
         */
        get: operations["getBranches"];
        put?: never;
        /**
         * Create a branch
         * @description **Who:** Administrators.
         */
        post: operations["postBranches"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/branches/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a branch
         * @description **Who:** Signed in. API tokens with the `read` scope (or `export`) too.
         */
        get: operations["getBranchesId"];
        put?: never;
        post?: never;
        /**
         * Delete a branch (to the trash)
         * @description **Who:** Administrators.
         *
         *     Its subscribers keep their link and show no branch until it is restored; its name is free meanwhile.
         */
        delete: operations["deleteBranchesId"];
        options?: never;
        head?: never;
        /**
         * Rename a branch
         * @description **Who:** Administrators.
         */
        patch: operations["patchBranchesId"];
        trace?: never;
    };
    "/api/v1/subscribers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List subscribers
         * @description **Who:** Signed in. API tokens with the `read` scope (or `export`) too.
         *
         *     The list's filters, sort and page (docs/API.md, Filters); 429 when the caller already has too many heavy lists loading.
         */
        get: operations["getSubscribers"];
        put?: never;
        /**
         * Create a subscriber
         * @description **Who:** Signed in.
         *
         *     `is_duplicate` is computed by the server, never taken from the body. The mobile is normalised to E.164 with the country's rules.
         */
        post: operations["postSubscribers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscribers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a subscriber
         * @description **Who:** Signed in. API tokens with the `read` scope (or `export`) too.
         */
        get: operations["getSubscribersId"];
        put?: never;
        post?: never;
        /**
         * Delete a subscriber (to the trash)
         * @description **Who:** Administrators.
         *
         *     It leaves every list, count, export and duplicate check, and can be restored from the trash for TRASH_RETENTION_DAYS.
         */
        delete: operations["deleteSubscribersId"];
        options?: never;
        head?: never;
        /**
         * Change a subscriber
         * @description **Who:** Signed in.
         *
         *     The given fields over the record, checked by the creation rules. `updated_at` as read says which version you changed: 409 when someone changed it since.
         */
        patch: operations["patchSubscribersId"];
        trace?: never;
    };
    "/api/v1/subscribers/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change many subscribers at once
         * @description **Who:** Signed in.
         *
         *     Exactly one of `filters` (the list's filters; `{}` is every subscriber) and `ids` (at most 100). Status and mandatory changes: anyone signed in; deletion (to the trash): administrators. 200 with the finished change when it ran at once, 202 when it runs as a job (read it with GET). 429 when you already have too many jobs.
         */
        post: operations["postSubscribersBulk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscribers/bulk/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a bulk change
         * @description **Who:** Signed in. API tokens with the `read` scope (or `export`) too.
         *
         *     Its author's, or any for an administrator; anyone else's is a 404.
         */
        get: operations["getSubscribersBulkId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscribers/bulk/{id}/undo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Undo a bulk change
         * @description **Who:** Signed in.
         *
         *     Its author or an administrator (a deletion's: administrators), within TRASH_RETENTION_DAYS. Puts back every row it changed, except rows changed since by anyone (counted in `skipped_rows`); a deletion's undo restores its rows from the trash. Answers like a bulk change, with `undo_of`; 409 when it is already undone, being undone, not finished, an undo itself, or too old.
         */
        post: operations["postSubscribersBulkIdUndo"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscribers/duplicates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Groups of subscribers sharing an email or a mobile
         * @description **Who:** Signed in. API tokens with the `read` scope (or `export`) too.
         *
         *     10 groups a page, the group with the newest member first; each group's members newest first (at most 50). Pairs marked not duplicates are left out; a scoped user sees the members in their scope, and a group with fewer than two of them not at all.
         */
        get: operations["getSubscribersDuplicates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscribers/duplicates/dismiss": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mark subscribers as not duplicates of each other
         * @description **Who:** Signed in.
         *
         *     Every pair of them is stored; their flags, and those of everyone sharing their keys, are decided again. Audited. 404 naming a subscriber outside your scope or unknown.
         */
        post: operations["postSubscribersDuplicatesDismiss"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscribers/duplicates/dismiss/undo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Take back "not duplicates" between subscribers
         * @description **Who:** Administrators.
         *
         *     Every stored pair among them is removed and the flags decided again. Audited. 404 naming a subscriber unknown or in the trash.
         */
        post: operations["postSubscribersDuplicatesDismissUndo"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscribers/merge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Merge duplicates into one subscriber
         * @description **Who:** Administrators.
         *
         *     One transaction: the survivor takes each field named in `values` from that subscriber (its own value otherwise); the merged go to the trash with `merged_into`; every flag involved is decided again; the survivor's history names the merge. 409 naming who changed what when any of them changed since its `updated_at`; 400 for fewer than two distinct subscribers, a survivor among the merged, or a field that is not a subscriber field.
         */
        post: operations["postSubscribersMerge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscribers/merges/{merge_id}/undo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Undo a merge
         * @description **Who:** Administrators.
         *
         *     The merged come back from the trash and the survivor gets its values from before the merge. 409 when the survivor changed since the merge, a merged subscriber left the trash, or the merge was already undone.
         */
        post: operations["postSubscribersMergesMergeIdUndo"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscribers/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read your export's status
         * @description **Who:** Signed in. API tokens with the `export` scope too.
         */
        get: operations["getSubscribersExport"];
        put?: never;
        /**
         * Request an export of the subscribers matching the filters
         * @description **Who:** Signed in. API tokens with the `export` scope too.
         *
         *     The list's filters as a JSON object of strings, or in the query string of a POST without a body (not both). `format` (`csv`, the default, or `xlsx`) in the body or the query string, once. 400 naming a key that is not a filter or a value that is not one string; 409 while your export is in the queue.
         */
        post: operations["postSubscribersExport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/exports/{id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an export's file (its owner only)
         * @description **Who:** Signed in. API tokens with the `export` scope too.
         *
         *     The `downloadable_file` path of the export status. Another user's export is a 404. CSV or XLSX, as the export's `format`. A file withdrawn because it held erased data answers 410 `erased_data`, saying why.
         */
        get: operations["getExportsIdDownload"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscribers/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your ten most recent imports
         * @description **Who:** Signed in. API tokens with the `read` scope (or `export`) too.
         */
        get: operations["getSubscribersImports"];
        put?: never;
        /**
         * Upload a CSV or XLSX file to import (or preview, with dry_run=true)
         * @description **Who:** Signed in.
         *
         *     Multipart, each part once. A dry run answers 200 with the counts and the preview and imports nothing; an import is queued (202). Bad files: 400 `invalid_file`; a mapping that cannot be used: 400 `invalid_mapping`; not multipart: 415; past IMPORT_MAX_MB: 413.
         */
        post: operations["postSubscribersImports"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscribers/imports/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an import's status (its owner only)
         * @description **Who:** Signed in. API tokens with the `read` scope (or `export`) too.
         */
        get: operations["getSubscribersImportsId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscribers/imports/template": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A CSV with the header an import reads
         * @description **Who:** Signed in. API tokens with the `read` scope (or `export`) too.
         */
        get: operations["getSubscribersImportsTemplate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscribers/imports/{id}/rejected": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The rejected rows of a completed import, with an `error` column
         * @description **Who:** Signed in. API tokens with the `read` scope (or `export`) too.
         */
        get: operations["getSubscribersImportsIdRejected"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/countries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every country, by name
         * @description **Who:** Signed in. API tokens with the `read` scope (or `export`) too.
         */
        get: operations["getCountries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List users
         * @description **Who:** Administrators. API tokens with the `read` scope (or `export`) too.
         */
        get: operations["getUsers"];
        put?: never;
        /**
         * Create a user
         * @description **Who:** Administrators.
         *
         *     Without `password` the answer carries `set_password_url`, a one-time link shown this once.
         */
        post: operations["postUsers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a user's name, role or active
         * @description **Who:** Administrators.
         *
         *     409 for yourself (demote, deactivate); 422 `last_admin` when no active administrator would remain.
         */
        patch: operations["patchUsersId"];
        trace?: never;
    };
    "/api/v1/users/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Choose your own language
         * @description **Who:** Signed in.
         *
         *     `locale`: `en`, `fr` or `ar`, or `null` to follow the browser's `Accept-Language`. The console's pages follow it from the next request on.
         */
        patch: operations["patchUsersMe"];
        trace?: never;
    };
    "/api/v1/users/{id}/two-factor": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Reset a user's two-factor codes
         * @description **Who:** Administrators.
         *
         *     Removes the user's two-factor codes and ends their sessions (audited). 409 for yourself.
         */
        delete: operations["deleteUsersIdTwoFactor"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{id}/sso": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Unlink a user's single sign-on account
         * @description **Who:** Administrators.
         *
         *     The account is no longer linked to its single sign-on subject (`iss` + `sub`): the next person to sign in with its verified email links it. The user's sessions end (audited `user.sso_unlink`). An account that is not linked answers 204 too, and nothing changes.
         */
        delete: operations["deleteUsersIdSso"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/views": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your views and the shared ones, by name
         * @description **Who:** Signed in. API tokens with the `read` scope (or `export`) too.
         *
         *     10 a page, like every list.
         */
        get: operations["getViews"];
        put?: never;
        /**
         * Save a view
         * @description **Who:** Signed in.
         *
         *     The query is checked by its list's own filter parser: 400 naming a bad key or value. 409 `conflict` when you already have a view of that name for that list; 409 `too_many_views` when you already keep VIEWS_PER_USER views of that list (default 50): delete one first.
         */
        post: operations["postViews"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/views/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a view
         * @description **Who:** Signed in. API tokens with the `read` scope (or `export`) too.
         *
         *     Someone else's private view is a 404.
         */
        get: operations["getViewsId"];
        put?: never;
        post?: never;
        /**
         * Delete a view
         * @description **Who:** Signed in.
         *
         *     Its owner, or an administrator for a shared view (403 for staff).
         */
        delete: operations["deleteViewsId"];
        options?: never;
        head?: never;
        /**
         * Change a view
         * @description **Who:** Signed in.
         *
         *     Its owner, or an administrator for a shared view (403 for staff). 409 when the new name is taken.
         */
        patch: operations["patchViewsId"];
        trace?: never;
    };
    "/api/v1/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your recent changes
         * @description **Who:** Signed in. API tokens with the `read` scope (or `export`) too.
         *
         *     Your bulk changes, imports, exports, merges and deletions (to the trash), newest first, 10 a page, each with `can_undo`. Administrators may ask for another user's with `user_id`; anyone else's is a 403.
         */
        get: operations["getActivity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/trash/subscribers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List trashed subscribers
         * @description **Who:** Administrators. API tokens with the `read` scope (or `export`) too.
         *
         *     Newest deletion first. `name` matches the first or last name or the email; `deleted_from`/`deleted_to` are whole days.
         */
        get: operations["getTrashSubscribers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/trash/branches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List trashed branches
         * @description **Who:** Administrators. API tokens with the `read` scope (or `export`) too.
         */
        get: operations["getTrashBranches"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/trash/subscribers/{id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore a trashed subscriber
         * @description **Who:** Administrators.
         *
         *     Back among the live records: 404 unless it is in the trash; 409 when restoring would break a rule (a branch's name taken since), naming it. Its duplicate flag, and those of the subscribers after it sharing its email or mobile, are decided again.
         */
        post: operations["postTrashSubscribersIdRestore"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/trash/branches/{id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore a trashed branch
         * @description **Who:** Administrators.
         *
         *     Back among the live records: 404 unless it is in the trash; 409 when restoring would break a rule (a branch's name taken since), naming it. Its subscribers show its name again.
         */
        post: operations["postTrashBranchesIdRestore"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/trash/subscribers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Erase a trashed subscriber for good
         * @description **Who:** Administrators.
         */
        delete: operations["deleteTrashSubscribersId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/trash/branches/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Erase a trashed branch for good
         * @description **Who:** Administrators.
         *
         *     Its subscribers are left without a branch.
         */
        delete: operations["deleteTrashBranchesId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/people/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download everything held about a person
         * @description **Who:** Administrators. API tokens with the `read` scope (or `export`) too.
         *
         *     One of `email`, `mobile` (E.164 or with + and the country code) or `subscriber_id` (that record's email and mobile). A zip of `person.json` (every record sharing the email or mobile: live, in the trash, merged away; each one's history; merges, bulk changes, audit entries, imports and exports that concern them, saved views naming them) and `summary.csv`. 404 when nothing matches. Audited as `person.export` without personal values.
         */
        get: operations["getPeopleExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/people/erase": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Erase a person everywhere
         * @description **Who:** Administrators.
         *
         *     Every record sharing the email or mobile, and every copy of their values (history, merges, bulk changes' undo data, filters of exports, views and the audit, import previews and files); export files holding them are withdrawn (their owners get 410 `erased_data`). Cannot be undone. Audited as `person.erase` with the counts. 404 when nothing matches.
         */
        post: operations["postPeopleErase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/people/retention": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retention's dry run: how many subscribers it would erase, per branch
         * @description **Who:** Administrators. API tokens with the `read` scope (or `export`) too.
         *
         *     Subscribers whose travel date is `RETENTION_ERASE_AFTER_DAYS` past and that nobody changed for `RETENTION_UNCHANGED_DAYS`, counted per branch; `erase_after_days` and `unchanged_days` try other settings. Writes nothing. `enabled`: whether the scheduled job erases (the setting is set).
         */
        get: operations["getPeopleRetention"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your API tokens, newest first
         * @description **Who:** Signed in with a session (not with a token); your own tokens only.
         */
        get: operations["getTokens"];
        put?: never;
        /**
         * Make an API token
         * @description **Who:** Signed in with a session (not with a token); your own tokens only.
         *
         *     `expires_at`: a date YYYY-MM-DD (the token works to the end of that UTC day) or an ISO 8601 instant, at most 365 days ahead. The token is in this answer only.
         */
        post: operations["postTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke one of your tokens, at once
         * @description **Who:** Signed in with a session (not with a token); your own tokens only.
         */
        delete: operations["deleteTokensId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints, newest first
         * @description **Who:** Administrators. API tokens with the `read` scope (or `export`) too.
         *
         *     10 a page, like every list.
         */
        get: operations["getWebhooks"];
        put?: never;
        /**
         * Add a webhook endpoint
         * @description **Who:** Administrators.
         *
         *     The answer carries `secret` (`whsec_…`), the signing key, shown this once. 400 `webhook_target_refused` for a target on a loopback, private, link-local or metadata address (unless WEBHOOK_ALLOW_PRIVATE=1), or an `http://` one (unless WEBHOOK_ALLOW_HTTP=1); 400 `invalid_input` for an unknown event name, no events or a URL that is not one.
         */
        post: operations["postWebhooks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a webhook endpoint
         * @description **Who:** Administrators. API tokens with the `read` scope (or `export`) too.
         */
        get: operations["getWebhooksId"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint and its deliveries
         * @description **Who:** Administrators.
         */
        delete: operations["deleteWebhooksId"];
        options?: never;
        head?: never;
        /**
         * Change a webhook endpoint
         * @description **Who:** Administrators.
         *
         *     Any of `url`, `description`, `events`, `enabled`. Turning it on again clears `disabled_reason`. 400 `webhook_target_refused` for a target on a loopback, private, link-local or metadata address (unless WEBHOOK_ALLOW_PRIVATE=1), or an `http://` one (unless WEBHOOK_ALLOW_HTTP=1); 400 `invalid_input` for an unknown event name, no events or a URL that is not one.
         */
        patch: operations["patchWebhooksId"];
        trace?: never;
    };
    "/api/v1/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a new signing secret
         * @description **Who:** Administrators.
         *
         *     201 with the new `secret`, shown this once; the old one still signs, beside it, until `previous_secret_until` (WEBHOOK_SECRET_OVERLAP_HOURS, default 24).
         */
        post: operations["postWebhooksIdRotateSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event (ping)
         * @description **Who:** Administrators.
         *
         *     Records a `ping` event for this endpoint alone and answers 202 with its delivery, sent in the background.
         */
        post: operations["postWebhooksIdTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An endpoint's deliveries, newest first
         * @description **Who:** Administrators. API tokens with the `read` scope (or `export`) too.
         *
         *     Each event sent to the endpoint and its attempts so far; 10 a page, like every list.
         */
        get: operations["getWebhooksIdDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries/{delivery_id}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again
         * @description **Who:** Administrators.
         *
         *     Puts the delivery back to `pending`, to be sent at once (whatever its status); 404 when it is not this endpoint's.
         */
        post: operations["postWebhooksIdDeliveriesDeliveryIdResend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document (OpenAPI 3.1)
         * @description **Who:** Anyone, no session needed.
         *
         *     Generated from the schemas the routes parse with; no session needed. Read it as a page at /api/docs.
         */
        get: operations["getOpenapiJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            error: {
                /** @description A stable code: invalid_input, unauthorized, forbidden, not_found, conflict, … */
                code: string;
                /** @description What went wrong and what to do, for a person. */
                message: string;
                /** @description Messages by field or parameter name (`_` for the whole input). */
                fields?: {
                    [key: string]: string[];
                };
                /** @description The request's id (its X-Request-Id), to quote when asking for help. */
                request_id?: string;
            } & {
                [key: string]: unknown;
            };
        };
        Branch: {
            id: number;
            name: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        Pagination: {
            total: number;
            length: number;
            page: number;
            per_page: number;
        };
        Subscriber: {
            id: number;
            first_name: string;
            last_name: string;
            branch_name: string | null;
            country_name: string | null;
            email: string;
            mobile: string;
            travel_date: string | null;
            sheet: {
                name: string;
            } | null;
            /** @enum {string} */
            subscription_status: "pending" | "active" | "expired" | "cancelled";
            is_duplicate: boolean;
            is_mandatory: boolean;
            /** Format: date-time */
            created_at: string;
        };
        SubscriberRecord: {
            id: number;
            first_name: string;
            last_name: string;
            branch_name: string | null;
            country_name: string | null;
            email: string;
            mobile: string;
            travel_date: string | null;
            sheet: {
                name: string;
            } | null;
            /** @enum {string} */
            subscription_status: "pending" | "active" | "expired" | "cancelled";
            is_duplicate: boolean;
            is_mandatory: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        BulkChange: {
            id: string;
            /** @enum {string} */
            status: "in_queue" | "running" | "completed" | "failed";
            /** @description What it changes; an undo names the change it puts back. */
            change: {
                /** @enum {string} */
                subscription_status: "pending" | "active" | "expired" | "cancelled";
            } | {
                is_mandatory: boolean;
            } | {
                /** @constant */
                delete: true;
            };
            target: {
                ids: number[];
            } | {
                filters: {
                    [key: string]: string;
                };
            } | {
                undo_of: string;
            };
            /** @description The rows it was aimed at when it was requested. */
            matched_rows: number;
            processed_rows: number;
            changed_rows: number;
            /** @description An undo's rows left as they are: someone changed them after the change it undoes. */
            skipped_rows: number;
            error: string | null;
            /** Format: date-time */
            created_at: string;
            completed_at: string | null;
            undo_of: string | null;
            undone_by: {
                id: number;
                name: string;
            } | null;
            undone_at: string | null;
            /** @description The undo of this change (running or done), if any. */
            undo_id: string | null;
        };
        DuplicateGroup: {
            /** @description The email (lower-cased) or the mobile (E.164) the members share. */
            key: string;
            /** @enum {string} */
            rule: "email" | "mobile";
            subscribers: components["schemas"]["SubscriberRecord"][];
        };
        DuplicateDismissal: {
            ids: number[];
            /** @description The pairs this request stored (or, for an undo, removed). */
            pairs: [
                number,
                number
            ][];
            /** @description The subscribers whose is_duplicate changed. */
            decided_again: number[];
        };
        SubscriberMerge: {
            survivor: components["schemas"]["SubscriberRecord"];
            /** @description Names the merge for its undo. */
            merge_id: string;
        };
        ExportStatus: {
            /** @description Path of the newest completed file, or null while none exists. */
            downloadable_file: string | null;
            /** @description State of the latest request; null when the user never requested an export. */
            downloadable_file_status: ("in_queue" | "completed" | "failed") | null;
            /**
             * @description The latest request's file format (`csv` before any request).
             * @enum {string}
             */
            format: "csv" | "xlsx";
            /** @description True when no file existed when the latest request was made (and before any request). */
            fresh_download_file: boolean;
            progress: number;
            total_rows: number;
            processed_rows: number;
            requested_at: string | null;
            started_at: string | null;
            completed_at: string | null;
            error: string | null;
            /** @description The filters the latest request captured, as query strings. */
            filters: {
                [key: string]: string;
            };
            /** @description The list's sort the latest request's rows follow (`-created_at`…); null: by id. */
            sort: string | null;
            /** @description The downloadable file: its row count, time, filters, sort and the name it downloads as. */
            file: {
                rows: number;
                /** Format: date-time */
                completed_at: string;
                filename: string;
                /** @enum {string} */
                format: "csv" | "xlsx";
                filters: {
                    [key: string]: string;
                };
                sort: string | null;
            } | null;
        };
        ImportStatus: {
            id: string;
            /** @enum {string} */
            status: "in_queue" | "running" | "completed" | "failed";
            dry_run: boolean;
            file_name: string;
            /** @enum {string} */
            format: "csv" | "xlsx";
            worksheet: string | null;
            worksheets: string[];
            sheet_name: string;
            /** @description The sheet given with the import (null: each row's own, else the file's name). */
            chosen_sheet_name: string | null;
            headers: string[];
            mapping: {
                [key: string]: ("first_name" | "last_name" | "email" | "mobile" | "branch_name" | "country_name" | "travel_date" | "sheet" | "subscription_status" | "is_mandatory") | null;
            };
            /** @description What blocks the import. */
            problems: string[];
            /** @description What the import leaves out without being blocked by it: columns not imported. */
            warnings: string[];
            total_rows: number;
            processed_rows: number;
            imported_rows: number;
            rejected_rows: number;
            duplicate_rows: number;
            rejected_by_reason: {
                [key: string]: number;
            };
            preview: {
                line: number;
                cells: string[];
                /** @description Messages by column index; -1 for the whole row. */
                errors: {
                    [key: string]: string;
                };
            }[];
            rejected_file: string | null;
            error: string | null;
            /** Format: date-time */
            created_at: string;
            completed_at: string | null;
        };
        Country: {
            id: number;
            name: string;
        };
        User: {
            id: number;
            name: string;
            email: string;
            /** @enum {string} */
            role: "admin" | "staff";
            /** @description null: every branch (always for admins); else the branches a staff member is limited to. */
            branch_ids: number[] | null;
            active: boolean;
            /** @description Whether the user has set up two-factor codes. */
            two_factor: boolean;
            /** Format: date-time */
            created_at: string;
            last_sign_in_at: string | null;
            /** @description The language the user chose for the console; null: their browser's (docs/API.md, Languages). */
            locale: ("en" | "fr" | "ar") | null;
        };
        CreatedUser: {
            id: number;
            name: string;
            email: string;
            /** @enum {string} */
            role: "admin" | "staff";
            /** @description null: every branch (always for admins); else the branches a staff member is limited to. */
            branch_ids: number[] | null;
            active: boolean;
            /** @description Whether the user has set up two-factor codes. */
            two_factor: boolean;
            /** Format: date-time */
            created_at: string;
            last_sign_in_at: string | null;
            /** @description The language the user chose for the console; null: their browser's (docs/API.md, Languages). */
            locale: ("en" | "fr" | "ar") | null;
            set_password_url?: string;
        };
        View: {
            id: number;
            name: string;
            /** @enum {string} */
            resource: "subscribers" | "branches";
            /** @description The list's query string, without `page`. */
            query: string;
            /** @description null, or the shown columns in order. */
            columns: string[] | null;
            shared: boolean;
            owner: {
                id: number;
                name: string;
            };
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description null, or why its list now refuses its query or columns (the view is kept, shown as broken). */
            problem: string | null;
        };
        Activity: {
            /** @enum {string} */
            kind: "bulk_change" | "import" | "export" | "merge" | "subscriber_deletion" | "branch_deletion";
            /** @description The bulk change's, import's, export's or merge's id; a deletion's subscriber or branch id. */
            id: string;
            /** Format: date-time */
            at: string;
            user: {
                id: number;
                name: string;
            } | null;
            /** @enum {string} */
            status: "in_queue" | "running" | "completed" | "failed" | "undoing" | "undone" | "in_trash";
            /** @description What it did, in words. */
            summary: string;
            /** @description The console page that shows it, when there is one for you. */
            href: string | null;
            /** @description Whether you may undo it now (a bulk change's undo, a merge's undo, a restore from the trash). */
            can_undo: boolean;
        };
        TrashedSubscriber: {
            id: number;
            first_name: string;
            last_name: string;
            branch_name: string | null;
            country_name: string | null;
            email: string;
            mobile: string;
            travel_date: string | null;
            sheet: {
                name: string;
            } | null;
            /** @enum {string} */
            subscription_status: "pending" | "active" | "expired" | "cancelled";
            is_duplicate: boolean;
            is_mandatory: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            deleted_at: string;
            /** @description Who deleted it (null: an account that no longer exists). */
            deleted_by: {
                id: number;
                name: string;
            } | null;
            /** @description The subscriber it was merged into, or null when it was deleted. */
            merged_into: number | null;
        };
        TrashedBranch: {
            id: number;
            name: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            deleted_at: string;
            /** @description Who deleted it (null: an account that no longer exists). */
            deleted_by: {
                id: number;
                name: string;
            } | null;
        };
        Token: {
            id: number;
            name: string;
            /** @enum {string} */
            scope: "read" | "export";
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
            last_used_at: string | null;
            revoked_at: string | null;
            /** @enum {string} */
            state: "active" | "revoked" | "expired";
        };
        CreatedToken: {
            id: number;
            name: string;
            /** @enum {string} */
            scope: "read" | "export";
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
            last_used_at: string | null;
            revoked_at: string | null;
            /** @enum {string} */
            state: "active" | "revoked" | "expired";
            /** @description The token, shown this once. */
            token: string;
        };
        WebhookEndpoint: {
            id: number;
            url: string;
            description: string;
            events: string[];
            enabled: boolean;
            /** Format: date-time */
            created_at: string;
            /** @description Why the console turned it off (failing for days); null when on or turned off by an administrator. */
            disabled_reason: string | null;
        };
        WebhookEndpointWithSecret: {
            id: number;
            url: string;
            description: string;
            events: string[];
            enabled: boolean;
            /** Format: date-time */
            created_at: string;
            /** @description Why the console turned it off (failing for days); null when on or turned off by an administrator. */
            disabled_reason: string | null;
            /** @description `whsec_` and the base64 of 32 random bytes: shown this once. */
            secret: string;
            /** @description Until when the secret before it still signs (rotation); null on creation. */
            previous_secret_until: string | null;
        };
        WebhookDelivery: {
            id: number;
            event_id: string;
            type: string;
            /** @enum {string} */
            status: "pending" | "delivered" | "failed" | "dead";
            attempts: number;
            response_status: number | null;
            duration_ms: number | null;
            next_attempt_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
    };
    responses: {
        /** @description Bad input: `fields` names each bad value. */
        Error400: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Not signed in, or a token that is unknown, expired or revoked (`invalid_token`, with WWW-Authenticate). */
        Error401: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Not allowed: the role, the token's scope, a session's write from another site, or `two_factor_required` (REQUIRE_TWO_FACTOR covers the user, who has not set up two-factor codes yet). */
        Error403: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No such record (or not yours). */
        Error404: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Conflict with the record as it is now. */
        Error409: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Gone for good: `erased_data`, the file held personal data erased since (the message says why). */
        Error410: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The body is too large. */
        Error413: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The body is not of the type this operation reads. */
        Error415: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Refused by a rule the console always keeps (`last_admin`: there is always one active administrator). */
        Error422: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Too many requests: see Retry-After. */
        Error429: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The database or the file storage cannot be reached, or an import holds the rows: see Retry-After. */
        Error503: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The request's id, as the error's `request_id`: quote it when asking for help. */
        RequestId: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getBranches: {
        parameters: {
            query?: {
                page?: string;
                sort?: "id" | "-id" | "name" | "-name" | "created_at" | "-created_at" | "updated_at" | "-updated_at";
                view?: "all";
                id?: string;
                name?: string;
                created_from?: string;
                created_to?: string;
                updated_from?: string;
                updated_to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Branch"][];
                        pagination: components["schemas"]["Pagination"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    postBranches: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Branch"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            503: components["responses"]["Error503"];
        };
    };
    getBranchesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Branch"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    deleteBranchesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            503: components["responses"]["Error503"];
        };
    };
    patchBranchesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Branch"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            503: components["responses"]["Error503"];
        };
    };
    getSubscribers: {
        parameters: {
            query?: {
                page?: string;
                sort?: "id" | "-id" | "first_name" | "-first_name" | "last_name" | "-last_name" | "branch_name" | "-branch_name" | "country_name" | "-country_name" | "email" | "-email" | "mobile" | "-mobile" | "travel_date" | "-travel_date" | "sheet" | "-sheet" | "subscription_status" | "-subscription_status" | "is_duplicate" | "-is_duplicate" | "is_mandatory" | "-is_mandatory" | "created_at" | "-created_at";
                view?: "all";
                columns?: string;
                q?: string;
                id?: string;
                first_name?: string;
                last_name?: string;
                branch_name?: string;
                country_name?: string;
                email?: string;
                mobile?: string;
                sheet?: string;
                subscription_status?: "pending" | "active" | "expired" | "cancelled";
                is_duplicate?: "true" | "false";
                is_mandatory?: "true" | "false";
                travel_date_from?: string;
                travel_date_to?: string;
                created_from?: string;
                created_to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Subscriber"][];
                        pagination: components["schemas"]["Pagination"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    postSubscribers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    first_name: string;
                    last_name: string;
                    email: string;
                    mobile: string;
                    branch_id?: number | null;
                    country_id?: number | null;
                    travel_date?: string | null;
                    sheet_name?: string | null;
                    /** @enum {string} */
                    subscription_status: "pending" | "active" | "expired" | "cancelled";
                    is_mandatory: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscriber"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            503: components["responses"]["Error503"];
        };
    };
    getSubscribersId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriberRecord"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    deleteSubscribersId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            503: components["responses"]["Error503"];
        };
    };
    patchSubscribersId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    first_name?: string;
                    last_name?: string;
                    email?: string;
                    mobile?: string;
                    branch_id?: number | null;
                    country_id?: number | null;
                    travel_date?: string | null;
                    sheet_name?: string | null;
                    /** @enum {string} */
                    subscription_status?: "pending" | "active" | "expired" | "cancelled";
                    is_mandatory?: boolean;
                    /** Format: date-time */
                    updated_at: string;
                    /** @description Accepted and ignored: the server's to decide. */
                    id?: unknown;
                    /** @description Accepted and ignored: the server computes it. */
                    is_duplicate?: unknown;
                    /** @description Accepted and ignored. */
                    created_at?: unknown;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriberRecord"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            503: components["responses"]["Error503"];
        };
    };
    postSubscribersBulk: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description At most 100 subscriber ids. */
                    ids?: number[];
                    /** @description The list's filters as strings; `{}` means every subscriber. */
                    filters?: {
                        [key: string]: string;
                    };
                    change: {
                        /** @enum {string} */
                        subscription_status: "pending" | "active" | "expired" | "cancelled";
                    } | {
                        is_mandatory: boolean;
                    } | {
                        /** @constant */
                        delete: true;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkChange"];
                };
            };
            /** @description OK */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkChange"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    getSubscribersBulkId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job's id, as its status names it. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkChange"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    postSubscribersBulkIdUndo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job's id, as its status names it. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkChange"];
                };
            };
            /** @description OK */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkChange"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    getSubscribersDuplicates: {
        parameters: {
            query?: {
                page?: string;
                rule?: "email" | "mobile";
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DuplicateGroup"][];
                        pagination: components["schemas"]["Pagination"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    postSubscribersDuplicatesDismiss: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    ids: (string | number)[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DuplicateDismissal"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            503: components["responses"]["Error503"];
        };
    };
    postSubscribersDuplicatesDismissUndo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    ids: (string | number)[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DuplicateDismissal"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            503: components["responses"]["Error503"];
        };
    };
    postSubscribersMerge: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    survivor_id: string | number;
                    merged_ids: (string | number)[];
                    /** @description {field: subscriber id}: the fields the survivor takes from another member of the merge (its own value otherwise). */
                    values?: {
                        [key: string]: number;
                    };
                    /** @description {subscriber id: updated_at as read}, for every subscriber of the merge. */
                    updated_at: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriberMerge"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            503: components["responses"]["Error503"];
        };
    };
    postSubscribersMergesMergeIdUndo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The merge's id, as the merge answered it. */
                merge_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriberRecord"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            503: components["responses"]["Error503"];
        };
    };
    getSubscribersExport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExportStatus"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    postSubscribersExport: {
        parameters: {
            query?: {
                q?: string;
                id?: string;
                first_name?: string;
                last_name?: string;
                branch_name?: string;
                country_name?: string;
                email?: string;
                mobile?: string;
                sheet?: string;
                subscription_status?: "pending" | "active" | "expired" | "cancelled";
                is_duplicate?: "true" | "false";
                is_mandatory?: "true" | "false";
                travel_date_from?: string;
                travel_date_to?: string;
                created_from?: string;
                created_to?: string;
                /** @description The file's format; csv when absent. It may sit in the query string beside a body's filters. */
                format?: "csv" | "xlsx";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    q?: string;
                    id?: string;
                    first_name?: string;
                    last_name?: string;
                    branch_name?: string;
                    country_name?: string;
                    email?: string;
                    mobile?: string;
                    sheet?: string;
                    /** @enum {string} */
                    subscription_status?: "pending" | "active" | "expired" | "cancelled";
                    /** @enum {string} */
                    is_duplicate?: "true" | "false";
                    /** @enum {string} */
                    is_mandatory?: "true" | "false";
                    travel_date_from?: string;
                    travel_date_to?: string;
                    created_from?: string;
                    created_to?: string;
                    /**
                     * @description The file's format; csv when absent. It may sit in the query string beside a body's filters.
                     * @enum {string}
                     */
                    format?: "csv" | "xlsx";
                };
            };
        };
        responses: {
            /** @description OK */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExportStatus"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    getExportsIdDownload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job's id, as its status names it. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file, as an attachment. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            410: components["responses"]["Error410"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    getSubscribersImports: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ImportStatus"][];
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    postSubscribersImports: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    sheet_name?: string;
                    worksheet?: string;
                    mapping?: string;
                    /** @enum {string} */
                    dry_run?: "true" | "false";
                    /** @description The CSV or XLSX file. */
                    file: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportStatus"];
                };
            };
            /** @description OK */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportStatus"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    getSubscribersImportsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job's id, as its status names it. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportStatus"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    getSubscribersImportsTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file, as an attachment. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    getSubscribersImportsIdRejected: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job's id, as its status names it. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file, as an attachment. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    getCountries: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Country"][];
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    getUsers: {
        parameters: {
            query?: {
                page?: string;
                sort?: "id" | "-id" | "name" | "-name" | "email" | "-email" | "role" | "-role" | "active" | "-active" | "created_at" | "-created_at" | "last_sign_in_at" | "-last_sign_in_at";
                id?: string;
                name?: string;
                email?: string;
                role?: "admin" | "staff";
                active?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["User"][];
                        pagination: components["schemas"]["Pagination"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    postUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** Format: email */
                    email: string;
                    /** @enum {string} */
                    role: "admin" | "staff";
                    password?: "" | string;
                    branch_ids?: number[] | null;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedUser"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            503: components["responses"]["Error503"];
        };
    };
    patchUsersId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @enum {string} */
                    role?: "admin" | "staff";
                    active?: boolean;
                    branch_ids?: number[] | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            503: components["responses"]["Error503"];
        };
    };
    patchUsersMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    locale: ("en" | "fr" | "ar") | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            503: components["responses"]["Error503"];
        };
    };
    deleteUsersIdTwoFactor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            503: components["responses"]["Error503"];
        };
    };
    deleteUsersIdSso: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            503: components["responses"]["Error503"];
        };
    };
    getViews: {
        parameters: {
            query?: {
                page?: string;
                resource?: "subscribers" | "branches";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["View"][];
                        pagination: components["schemas"]["Pagination"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    postViews: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    resource: "subscribers" | "branches";
                    name: string;
                    /** @default  */
                    query?: string;
                    /** @default null */
                    columns?: string[] | null;
                    /** @default false */
                    shared?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["View"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            503: components["responses"]["Error503"];
        };
    };
    getViewsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["View"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    deleteViewsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            503: components["responses"]["Error503"];
        };
    };
    patchViewsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    query?: string;
                    columns?: string[] | null;
                    shared?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["View"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            503: components["responses"]["Error503"];
        };
    };
    getActivity: {
        parameters: {
            query?: {
                page?: string;
                /** @description Whose activity (administrators; anyone else only their own id). Default: your own. */
                user_id?: string;
                /** @description Whose activity, by email address, as on the page (administrators; anyone else only their own). `user_id` wins when both are given. */
                user?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Activity"][];
                        pagination: components["schemas"]["Pagination"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    getTrashSubscribers: {
        parameters: {
            query?: {
                page?: string;
                sort?: "deleted_at" | "-deleted_at" | "id" | "-id";
                name?: string;
                deleted_from?: string;
                deleted_to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TrashedSubscriber"][];
                        pagination: components["schemas"]["Pagination"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    getTrashBranches: {
        parameters: {
            query?: {
                page?: string;
                sort?: "deleted_at" | "-deleted_at" | "id" | "-id";
                name?: string;
                deleted_from?: string;
                deleted_to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TrashedBranch"][];
                        pagination: components["schemas"]["Pagination"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    postTrashSubscribersIdRestore: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriberRecord"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            503: components["responses"]["Error503"];
        };
    };
    postTrashBranchesIdRestore: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Branch"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            503: components["responses"]["Error503"];
        };
    };
    deleteTrashSubscribersId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            503: components["responses"]["Error503"];
        };
    };
    deleteTrashBranchesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            503: components["responses"]["Error503"];
        };
    };
    getPeopleExport: {
        parameters: {
            query?: {
                email?: string;
                mobile?: string;
                subscriber_id?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file, as an attachment. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/zip": string;
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    postPeopleErase: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email?: string;
                    mobile?: string;
                    subscriber_id?: number;
                    /** @constant */
                    confirm: true;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        erased_subscribers: number;
                        history_entries: number;
                        audit_entries_scrubbed: number;
                        import_rows: number;
                        exports_withdrawn: number;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            503: components["responses"]["Error503"];
        };
    };
    getPeopleRetention: {
        parameters: {
            query?: {
                erase_after_days?: number;
                unchanged_days?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        enabled: boolean;
                        erase_after_days: number | null;
                        unchanged_days: number;
                        total: number;
                        branches: {
                            branch_id: number | null;
                            branch_name: string | null;
                            count: number;
                        }[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    getTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Token"][];
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            503: components["responses"]["Error503"];
        };
    };
    postTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @enum {string} */
                    scope: "read" | "export";
                    expires_at: string;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedToken"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            503: components["responses"]["Error503"];
        };
    };
    deleteTokensId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            503: components["responses"]["Error503"];
        };
    };
    getWebhooks: {
        parameters: {
            query?: {
                page?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookEndpoint"][];
                        pagination: components["schemas"]["Pagination"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    postWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    url: string;
                    /** @default  */
                    description?: string;
                    events: string[];
                    /** @default true */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            503: components["responses"]["Error503"];
        };
    };
    getWebhooksId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    deleteWebhooksId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            503: components["responses"]["Error503"];
        };
    };
    patchWebhooksId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    url?: string;
                    description?: string;
                    events?: string[];
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            503: components["responses"]["Error503"];
        };
    };
    postWebhooksIdRotateSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            503: components["responses"]["Error503"];
        };
    };
    postWebhooksIdTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            503: components["responses"]["Error503"];
        };
    };
    getWebhooksIdDeliveries: {
        parameters: {
            query?: {
                page?: string;
            };
            header?: never;
            path: {
                /** @description The record's id: digits, no leading zero. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"][];
                        pagination: components["schemas"]["Pagination"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
        };
    };
    postWebhooksIdDeliveriesDeliveryIdResend: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id. */
                id: string;
                /** @description The delivery's id. */
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            503: components["responses"]["Error503"];
        };
    };
    getOpenapiJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        openapi: string;
                        info: {
                            title: string;
                            version: string;
                        } & {
                            [key: string]: unknown;
                        };
                        paths: {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
}
