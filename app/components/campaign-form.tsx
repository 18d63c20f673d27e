// The create and edit form of every campaign type (one component; each type shows its own fields). A plain form
// post that works without JavaScript: the date and time fields are always there, nine poll option inputs of
// which the blank ones are ignored, errors beside each field with the input kept. With JavaScript the same schema
// checks as the person types, the date fields show only for "later", options are added and removed with buttons,
// and the merge-tag picker inserts at the cursor while the counter says how many texts and credits it takes.
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { campaignFormSchema, optionSlots } from "./campaign-form-schema";
import { ChoiceGroup } from "./choices";
import { AppForm, FormErrors, translateError } from "./form";
import { MergeTagPicker, type CustomTag } from "./merge-tag-picker";
import { SegmentCounter } from "./segment-counter";
import { Banner, Button, ButtonLink, PageHeader } from "./ui";
import { KEYWORD_MAX, MAX_OPTIONS, MIN_OPTIONS, NAME_MAX, OPTION_MAX, TEXT_MAX, type CampaignStatus, type CampaignTypeName } from "~/domain/campaigns/model";

export interface CampaignFormData {
  type: CampaignTypeName;
  campaign: { id: number; name: string; editable: boolean; status: CampaignStatus } | null;
  groups: { id: number; name: string | null; count: number }[];
  customTags: CustomTag[];
  /** Integration tags the business can use ({{shopify.code}} once a shop is connected). */
  integrationTags?: string[];
  attributes: { key: string; name: string }[];
  /** Date attributes a reminder can follow (the appointment first). */
  dateAttributes?: { key: string; name: string }[];
  defaults: Record<string, unknown>;
  idempotencyKey: string;
}

export interface CampaignFormAction {
  result: SubmissionResult<string[]>;
  askEmptyGroup: boolean;
}

type Meta = {
  id: string;
  name: string;
  errorId: string;
  descriptionId: string;
  errors?: string[];
  initialValue?: unknown;
};

/** Which optional parts each type's form has. */
const PARTS: Record<CampaignTypeName, { keyword: "required" | "optional" | "entry" | "none"; thankYou: boolean; group: boolean; close: "optional" | "required" }> = {
  BOUNCEBACK: { keyword: "required", thankYou: false, group: false, close: "optional" },
  ONEQUESTION: { keyword: "optional", thankYou: true, group: true, close: "required" },
  POLL: { keyword: "optional", thankYou: true, group: true, close: "required" },
  INVITATION: { keyword: "optional", thankYou: false, group: true, close: "required" },
  PICKWINNERS: { keyword: "entry", thankYou: true, group: true, close: "required" },
  BIRTHDAYGREETING: { keyword: "none", thankYou: false, group: true, close: "optional" },
  REMINDER: { keyword: "none", thankYou: false, group: true, close: "optional" },
  POSTREGISTRATION: { keyword: "none", thankYou: false, group: true, close: "optional" },
  CUSTOMEREXP: { keyword: "required", thankYou: false, group: true, close: "optional" },
  CHECKIN: { keyword: "required", thankYou: false, group: false, close: "optional" },
};

/** Types that run until ended (their start is "start now", not "send now"). */
const STARTS: readonly CampaignTypeName[] = ["BOUNCEBACK", "PICKWINNERS", "BIRTHDAYGREETING", "REMINDER", "POSTREGISTRATION", "CUSTOMEREXP", "CHECKIN"];

/** The survey's six texts, in the order a member meets them. */
const SURVEY_TEXTS = ["introText", "scoreQuestionText", "detractorQuestionText", "promoterQuestionText", "detractorThankYouText", "promoterThankYouText"] as const;

function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

function FieldErrors({ errors, id, label, max }: { errors?: string[]; id: string; label?: string; max?: number }) {
  const { t } = useTranslation();
  if (!errors?.length) return null;
  return (
    <ul className="field__errors" id={id}>
      {[...new Set(errors)].map((e) => (
        <li key={e}>{translateError(t, e, { field: label, max })}</li>
      ))}
    </ul>
  );
}

function describedBy(meta: Meta, hint: boolean, extra?: string): string | undefined {
  return [hint ? meta.descriptionId : null, meta.errors?.length ? meta.errorId : null, extra ?? null].filter(Boolean).join(" ") || undefined;
}

function TextInput({ meta, label, hint, maxLength, type = "text", inputMode, autoCapitalize }: { meta: Meta; label: string; hint?: ReactNode; maxLength?: number; type?: string; inputMode?: "numeric" | "text"; autoCapitalize?: string }) {
  const invalid = Boolean(meta.errors?.length);
  return (
    <div className={`field${invalid ? " field--invalid" : ""}`}>
      <label htmlFor={meta.id}>{label}</label>
      {hint ? <p className="field__hint" id={meta.descriptionId}>{hint}</p> : null}
      <input
        id={meta.id}
        name={meta.name}
        type={type}
        inputMode={inputMode}
        autoCapitalize={autoCapitalize}
        defaultValue={typeof meta.initialValue === "string" ? meta.initialValue : undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(meta, Boolean(hint))}
        maxLength={maxLength ? maxLength * 2 : undefined}
      />
      <FieldErrors errors={meta.errors} id={meta.errorId} label={label} max={maxLength} />
    </div>
  );
}

/** A message text with the live segment and credit counter; `members` is how many it goes to (when known). */
function MessageText({ meta, label, hint, members, counterId, onText }: { meta: Meta; label: string; hint?: ReactNode; members: number | null; counterId: string; onText?: (v: string) => void }) {
  const initial = typeof meta.initialValue === "string" ? meta.initialValue : "";
  const [text, setText] = useState(initial);
  const [seen, setSeen] = useState(initial);
  if (initial !== seen) {
    setSeen(initial);
    setText(initial);
  }
  const invalid = Boolean(meta.errors?.length);
  return (
    <div className={`field${invalid ? " field--invalid" : ""}`}>
      <label htmlFor={meta.id}>{label}</label>
      {hint ? <p className="field__hint" id={meta.descriptionId}>{hint}</p> : null}
      <textarea
        id={meta.id}
        name={meta.name}
        rows={5}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          onText?.(e.target.value);
        }}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(meta, Boolean(hint), counterId)}
      />
      <FieldErrors errors={meta.errors} id={meta.errorId} label={label} max={TEXT_MAX} />
      <SegmentCounter text={text} members={members} id={counterId} />
    </div>
  );
}

/** A UK date and time pair: the date input carries `meta`'s name, the time input `time`'s (issueTime, closeTime, eventTime). */
function DateTime({ meta, time, label, hint }: { meta: Meta; time: Meta; label: string; hint?: ReactNode }) {
  const { t } = useTranslation();
  const invalid = Boolean(meta.errors?.length);
  return (
    <fieldset className={`cf-datetime${invalid ? " field--invalid" : ""}`} aria-describedby={describedBy(meta, Boolean(hint))}>
      <legend className="field__label">{label}</legend>
      {hint ? <p className="field__hint" id={meta.descriptionId}>{hint}</p> : null}
      <div className="cf-datetime__row">
        <div className="field">
          <label htmlFor={meta.id}>{t("campaigns.form.date")}</label>
          <input type="date" id={meta.id} name={meta.name} defaultValue={typeof meta.initialValue === "string" ? meta.initialValue : ""} aria-invalid={invalid || undefined} />
        </div>
        <div className="field">
          <label htmlFor={time.id}>{t("campaigns.form.time")}</label>
          <input type="time" id={time.id} name={time.name} defaultValue={typeof time.initialValue === "string" ? time.initialValue : ""} aria-invalid={invalid || undefined} />
        </div>
      </div>
      <FieldErrors errors={meta.errors} id={meta.errorId} label={label} />
    </fieldset>
  );
}

function Checkbox({ meta, label, hint }: { meta: Meta; label: string; hint?: ReactNode }) {
  return (
    <div className="field">
      <label className="checkbox">
        <input type="checkbox" name={meta.name} id={meta.id} defaultChecked={meta.initialValue === "on" || meta.initialValue === true} aria-describedby={hint ? meta.descriptionId : undefined} />
        <span>
          {label}
          {hint ? (
            <span className="field__hint cf-checkbox-hint" id={meta.descriptionId}>
              {hint}
            </span>
          ) : null}
        </span>
      </label>
      <FieldErrors errors={meta.errors} id={meta.errorId} label={label} />
    </div>
  );
}

/** The poll's options: nine inputs without JavaScript (blank ones ignored); with it, as many as needed, added and removed with buttons. */
function PollOptions({ meta, allErrors, hydrated }: { meta: Meta; allErrors: Record<string, string[]>; hydrated: boolean }) {
  const { t } = useTranslation();
  const [values, setValues] = useState(() => optionSlots(meta.initialValue, MAX_OPTIONS));
  const [seen, setSeen] = useState(meta.initialValue);
  if (meta.initialValue !== seen) {
    setSeen(meta.initialValue);
    setValues(optionSlots(meta.initialValue, hydrated ? MIN_OPTIONS : MAX_OPTIONS));
  }
  useEffect(() => {
    // With JavaScript, only the options given (at least two) and an "Add an option" button.
    setValues((v) => optionSlots(v, MIN_OPTIONS));
  }, []);
  const invalid = Boolean(meta.errors?.length);
  let given = -1;
  return (
    <fieldset className={`cf-options${invalid ? " field--invalid" : ""}`} aria-describedby={describedBy(meta, true)}>
      <legend className="field__label">{t("campaigns.form.options")}</legend>
      <p className="field__hint" id={meta.descriptionId}>
        {hydrated ? t("campaigns.form.optionsHintJs", { min: MIN_OPTIONS, max: MAX_OPTIONS }) : t("campaigns.form.optionsHint", { min: MIN_OPTIONS, max: MAX_OPTIONS })}
      </p>
      <ol className="cf-options__list">
        {values.map((value, i) => {
          if (value.trim() !== "") given += 1;
          const errors = value.trim() !== "" ? allErrors[`${meta.name}[${given}]`] : undefined;
          const id = `${meta.id}-${i}`;
          const label = t("campaigns.form.option", { n: i + 1 });
          return (
            <li key={i} className={`cf-options__item${errors?.length ? " field--invalid" : ""}`}>
              <label htmlFor={id} className="cf-options__label">
                {label}
              </label>
              <div className="cf-options__row">
                <input
                  id={id}
                  name={`${meta.name}[${i}]`}
                  value={value}
                  maxLength={OPTION_MAX * 2}
                  onChange={(e) => setValues((v) => v.map((o, j) => (j === i ? e.target.value : o)))}
                  aria-invalid={errors?.length ? true : undefined}
                  aria-describedby={errors?.length ? `${id}-error` : undefined}
                />
                {hydrated && values.length > MIN_OPTIONS ? (
                  <button type="button" className="btn btn--secondary btn--small" onClick={() => setValues((v) => v.filter((_, j) => j !== i))} aria-label={t("campaigns.form.removeOption", { n: i + 1 })}>
                    {t("campaigns.form.remove")}
                  </button>
                ) : null}
              </div>
              <FieldErrors errors={errors} id={`${id}-error`} label={label} max={OPTION_MAX} />
            </li>
          );
        })}
      </ol>
      {hydrated && values.length < MAX_OPTIONS ? (
        <button type="button" className="btn btn--secondary btn--small" onClick={() => setValues((v) => [...v, ""])}>
          {t("campaigns.form.addOption")}
        </button>
      ) : null}
      <FieldErrors errors={meta.errors} id={meta.errorId} label={t("campaigns.form.options")} />
    </fieldset>
  );
}

/** The merge tags for the main text, folded away until wanted (the form is long on a phone). */
function TagPicker({ textareaId, custom, integration }: { textareaId: string; custom: CustomTag[]; integration?: string[] }) {
  const { t } = useTranslation();
  return (
    <details className="cf-tags">
      <summary>{t("campaigns.form.tagsSummary")}</summary>
      <MergeTagPicker textareaId={textareaId} custom={custom} integration={integration} id="cf-tags" headingLevel={2} />
    </details>
  );
}

function GroupSelect({ meta, groups, label, onChange }: { meta: Meta; groups: CampaignFormData["groups"]; label: string; onChange: (id: number) => void }) {
  const { t, i18n } = useTranslation();
  const fmt = (n: number) => n.toLocaleString(i18n.language === "fr" ? "fr-FR" : "en-GB");
  const invalid = Boolean(meta.errors?.length);
  return (
    <div className={`field${invalid ? " field--invalid" : ""}`}>
      <label htmlFor={meta.id}>{label}</label>
      <select
        id={meta.id}
        name={meta.name}
        defaultValue={typeof meta.initialValue === "string" ? meta.initialValue : "-1"}
        onChange={(e) => onChange(Number(e.target.value))}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? meta.errorId : undefined}
      >
        {groups.map((g) => (
          <option key={g.id} value={g.id}>
            {t("campaigns.form.groupOption", { name: g.name ?? t("campaigns.allSubscribers"), count: g.count, formatted: fmt(g.count) })}
          </option>
        ))}
      </select>
      <FieldErrors errors={meta.errors} id={meta.errorId} label={label} />
    </div>
  );
}

export function CampaignForm({ data, actionData }: { data: CampaignFormData; actionData: CampaignFormAction | undefined }) {
  const { t } = useTranslation();
  const { type, campaign, groups } = data;
  const parts = PARTS[type];
  const hydrated = useHydrated();
  const [form, fields] = useForm<Record<string, unknown>>({
    id: `campaign-${type.toLowerCase()}`,
    lastResult: actionData?.result,
    defaultValue: data.defaults as never,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: campaignFormSchema(type) }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const f = (name: string) => fields[name] as unknown as Meta;
  const initial = (name: string) => f(name).initialValue;
  const initialText = (name: string, fallback: string) => {
    const v = initial(name);
    return typeof v === "string" ? v : fallback;
  };
  const [groupId, setGroupId] = useState(Number(initialText("contactGroupId", "-1")));
  const [issueMode, setIssueMode] = useState(initialText("issueMode", "NOW"));
  const [entrySource, setEntrySource] = useState(initialText("entrySource", "GROUP"));
  const members = groups.find((g) => g.id === groupId)?.count ?? null;
  const typeName = t(`campaigns.types.${type}.name`);

  const title = campaign ? t("campaigns.form.editTitle", { name: campaign.name }) : t(`campaigns.types.${type}.createTitle`);
  if (campaign && !campaign.editable) {
    return (
      <div className="stack cf-page">
        <PageHeader title={title} />
        <Banner tone="warning">{t("errors.BR028")}</Banner>
        <FormErrors errors={form.errors?.filter((e) => !e.startsWith("errors.BR028"))} id={form.errorId} />
        <p>
          <ButtonLink to={`/viewcampaign?id=${campaign.id}`}>{t("campaigns.form.viewResults")}</ButtonLink>
        </p>
      </div>
    );
  }

  const byKeyword = type === "PICKWINNERS" && entrySource === "KEYWORD";
  const showGroup = parts.group && !(type === "PICKWINNERS" && hydrated && entrySource === "KEYWORD");
  const showEntryKeyword = type !== "PICKWINNERS" || !hydrated || byKeyword;
  const issueFields = (
    <ChoiceGroup
      name={f("issueMode").name}
      legend={t(`campaigns.form.issue.${type}`)}
      defaultValue={issueMode}
      onChange={setIssueMode}
      options={[
        { value: "NOW", label: t(STARTS.includes(type) ? "campaigns.form.startNow" : "campaigns.form.sendNow") },
        { value: "LATER", label: t("campaigns.form.later") },
      ]}
    >
      <div hidden={hydrated && issueMode !== "LATER"}>
        <DateTime meta={f("issueDate")} time={f("issueTime")} label={t("campaigns.form.issueAt")} hint={t("campaigns.form.ukTime")} />
      </div>
    </ChoiceGroup>
  );

  return (
    <div className="stack cf-page">
      <PageHeader title={title} lead={t(`campaigns.types.${type}.lead`)} />
      <FormErrors errors={form.errors} id={form.errorId} />
      <AppForm {...getFormProps(form)} className="form cf-form">
        <input type="hidden" name="idempotencyKey" value={data.idempotencyKey} />
        <TextInput meta={f("name")} label={t("campaigns.form.name")} hint={t("campaigns.form.nameHint", { max: NAME_MAX })} maxLength={NAME_MAX} />

        {type === "PICKWINNERS" ? (
          <ChoiceGroup
            name={f("entrySource").name}
            legend={t("campaigns.form.entrySource")}
            defaultValue={entrySource}
            onChange={setEntrySource}
            errors={f("entrySource").errors?.map((e) => translateError(t, e))}
            errorId={f("entrySource").errorId}
            options={[
              { value: "GROUP", label: t("campaigns.form.entryGroup"), hint: t("campaigns.form.entryGroupHint") },
              { value: "KEYWORD", label: t("campaigns.form.entryKeyword"), hint: t("campaigns.form.entryKeywordHint") },
            ]}
          />
        ) : null}

        {showGroup ? (
          <GroupSelect
            meta={f("contactGroupId")}
            groups={type === "CUSTOMEREXP" ? [{ id: 0, name: t("campaigns.form.surveyNobody"), count: 0 }, ...groups] : groups}
            label={t(type === "PICKWINNERS" ? "campaigns.form.drawGroup" : type === "CUSTOMEREXP" ? "campaigns.form.surveyGroup" : "campaigns.form.group")}
            onChange={setGroupId}
          />
        ) : null}

        {showEntryKeyword && parts.keyword !== "none" ? (
          <TextInput
            meta={f("keyword")}
            label={t(parts.keyword === "required" ? "campaigns.form.keyword" : parts.keyword === "entry" ? "campaigns.form.entryKeywordLabel" : "campaigns.form.keywordOptional")}
            hint={t(`campaigns.form.keywordHint.${type}`, { max: KEYWORD_MAX })}
            maxLength={KEYWORD_MAX}
            autoCapitalize="characters"
          />
        ) : null}

        {type === "CUSTOMEREXP" ? (
          <fieldset className="cf-survey">
            <legend className="field__label">{t("campaigns.form.surveyTexts")}</legend>
            {SURVEY_TEXTS.map((name) => (
              <MessageText key={name} meta={f(name)} label={t(`campaigns.form.survey.${name}`)} hint={t(`campaigns.form.surveyHint.${name}`)} members={null} counterId={`cf-${name}-counter`} />
            ))}
            <TextInput meta={f("reviewLink")} label={t("campaigns.form.reviewLink")} hint={t("campaigns.form.reviewLinkHint")} type="url" maxLength={500} />
          </fieldset>
        ) : null}

        {type === "BIRTHDAYGREETING" || type === "REMINDER" ? (
          <div className="field">
            <label htmlFor={f("sendTime").id}>{t("campaigns.form.sendTime")}</label>
            <p className="field__hint" id={f("sendTime").descriptionId}>
              {t(`campaigns.form.sendTimeHint.${type}`)}
            </p>
            <input type="time" id={f("sendTime").id} name={f("sendTime").name} defaultValue={initialText("sendTime", "10:00")} aria-describedby={f("sendTime").descriptionId} aria-invalid={f("sendTime").errors?.length ? true : undefined} />
            <FieldErrors errors={f("sendTime").errors} id={f("sendTime").errorId} label={t("campaigns.form.sendTime")} />
          </div>
        ) : null}

        {type === "REMINDER" ? (
          <>
            <div className={`field${f("dateAttribute").errors?.length ? " field--invalid" : ""}`}>
              <label htmlFor={f("dateAttribute").id}>{t("campaigns.form.dateAttribute")}</label>
              <p className="field__hint" id={f("dateAttribute").descriptionId}>
                {t("campaigns.form.dateAttributeHint")}
              </p>
              <select id={f("dateAttribute").id} name={f("dateAttribute").name} defaultValue={initialText("dateAttribute", "appointment")} aria-describedby={f("dateAttribute").descriptionId} aria-invalid={f("dateAttribute").errors?.length ? true : undefined}>
                {(data.dateAttributes ?? []).map((a) => (
                  <option key={a.key} value={a.key}>
                    {a.key === "appointment" ? t("campaigns.form.appointment") : a.name}
                  </option>
                ))}
              </select>
              <FieldErrors errors={f("dateAttribute").errors} id={f("dateAttribute").errorId} label={t("campaigns.form.dateAttribute")} />
            </div>
            <ChoiceGroup
              name={f("daysBefore").name}
              legend={t("campaigns.form.daysBefore")}
              defaultValue={initialText("daysBefore", "1")}
              errors={f("daysBefore").errors?.map((e) => translateError(t, e))}
              errorId={f("daysBefore").errorId}
              options={[
                { value: "1", label: t("campaigns.form.dayBefore", { count: 1 }) },
                { value: "2", label: t("campaigns.form.dayBefore", { count: 2 }) },
              ]}
            />
          </>
        ) : null}

        {type === "POSTREGISTRATION" ? (
          <>
            <TextInput meta={f("duration")} label={t("campaigns.form.duration")} hint={t("campaigns.form.durationHint")} type="number" inputMode="numeric" />
            <ChoiceGroup
              name={f("durationUnit").name}
              legend={t("campaigns.form.durationUnit")}
              defaultValue={initialText("durationUnit", "DAYS")}
              errors={f("durationUnit").errors?.map((e) => translateError(t, e))}
              errorId={f("durationUnit").errorId}
              options={[
                { value: "HOURS", label: t("campaigns.form.hours") },
                { value: "DAYS", label: t("campaigns.form.days") },
              ]}
            />
            <TextInput meta={f("includeJoinedWithinDays")} label={t("campaigns.form.includeRecent")} hint={t("campaigns.form.includeRecentHint")} type="number" inputMode="numeric" />
          </>
        ) : null}

        {type === "CHECKIN" ? <TextInput meta={f("autoCheckoutHours")} label={t("campaigns.form.autoCheckout")} hint={t("campaigns.form.autoCheckoutHint")} type="number" inputMode="numeric" /> : null}

        {type !== "PICKWINNERS" && type !== "CUSTOMEREXP" ? (
          <>
            <MessageText
              meta={f("messageText")}
              label={t(`campaigns.form.message.${type}`)}
              hint={t(`campaigns.form.messageHint.${type}`)}
              members={parts.group ? members : null}
              counterId="cf-counter"
            />
            <TagPicker textareaId={f("messageText").id} custom={data.customTags} integration={data.integrationTags} />
          </>
        ) : null}

        {type === "POLL" ? <PollOptions meta={f("responseOptions")} allErrors={form.allErrors} hydrated={hydrated} /> : null}

        {type === "INVITATION" ? (
          <>
            <fieldset className={`cf-rsvp${f("responseOptions").errors?.length ? " field--invalid" : ""}`}>
              <legend className="field__label">{t("campaigns.form.rsvpWords")}</legend>
              <p className="field__hint">{t("campaigns.form.rsvpHint")}</p>
              <div className="cf-datetime__row">
                {[0, 1].map((i) => {
                  const words = optionSlots(initial("responseOptions"), 2);
                  const errors = form.allErrors[`responseOptions[${i}]`];
                  const label = t(i === 0 ? "campaigns.form.acceptWord" : "campaigns.form.declineWord");
                  return (
                    <div key={i} className={`field${errors?.length ? " field--invalid" : ""}`}>
                      <label htmlFor={`cf-rsvp-${i}`}>{label}</label>
                      <input id={`cf-rsvp-${i}`} name={`responseOptions[${i}]`} defaultValue={words[i]} maxLength={OPTION_MAX * 2} autoCapitalize="characters" aria-invalid={errors?.length ? true : undefined} />
                      <FieldErrors errors={errors} id={`cf-rsvp-${i}-error`} label={label} max={OPTION_MAX} />
                    </div>
                  );
                })}
              </div>
              <FieldErrors errors={f("responseOptions").errors} id={f("responseOptions").errorId} label={t("campaigns.form.rsvpWords")} />
            </fieldset>
            <MessageText meta={f("acceptText")} label={t("campaigns.form.acceptText")} hint={t("campaigns.form.acceptTextHint")} members={null} counterId="cf-accept-counter" />
            <MessageText meta={f("declineText")} label={t("campaigns.form.declineText")} hint={t("campaigns.form.declineTextHint")} members={null} counterId="cf-decline-counter" />
            <TextInput meta={f("capacity")} label={t("campaigns.form.capacity")} hint={t("campaigns.form.capacityHint")} type="number" inputMode="numeric" />
            <Checkbox meta={f("allowPartySize")} label={t("campaigns.form.allowPartySize")} hint={t("campaigns.form.allowPartySizeHint")} />
            <DateTime meta={f("eventDate")} time={f("eventTime")} label={t("campaigns.form.eventDate")} hint={t("campaigns.form.eventDateHint")} />
            <Checkbox meta={f("remindDayBefore")} label={t("campaigns.form.remindDayBefore")} hint={t("campaigns.form.remindDayBeforeHint")} />
            <MessageText meta={f("reminderText")} label={t("campaigns.form.reminderText")} hint={t("campaigns.form.reminderTextHint")} members={null} counterId="cf-reminder-counter" />
          </>
        ) : null}

        {type === "PICKWINNERS" ? (
          <>
            <TextInput meta={f("numberWinnersToPick")} label={t("campaigns.form.winners")} hint={t("campaigns.form.winnersHint")} type="number" inputMode="numeric" />
            <TextInput meta={f("excludeWinnersDays")} label={t("campaigns.form.excludeDays")} hint={t("campaigns.form.excludeDaysHint")} type="number" inputMode="numeric" />
          </>
        ) : null}

        {parts.thankYou && (type !== "PICKWINNERS" || showEntryKeyword) ? (
          <MessageText meta={f("thankYouText")} label={t(`campaigns.form.thankYou.${type}`)} hint={t(`campaigns.form.thankYouHint.${type}`)} members={null} counterId="cf-thanks-counter" />
        ) : null}

        {type === "PICKWINNERS" ? (
          <>
            <MessageText meta={f("messageText")} label={t("campaigns.form.message.PICKWINNERS")} hint={t("campaigns.form.messageHint.PICKWINNERS")} members={null} counterId="cf-counter" />
            <TagPicker textareaId={f("messageText").id} custom={data.customTags} integration={data.integrationTags} />
          </>
        ) : null}

        {type === "ONEQUESTION" && data.attributes.length > 0 ? (
          <div className="field">
            <label htmlFor={f("attributeKey").id}>{t("campaigns.form.attribute")}</label>
            <p className="field__hint" id={f("attributeKey").descriptionId}>
              {t("campaigns.form.attributeHint")}
            </p>
            <select id={f("attributeKey").id} name={f("attributeKey").name} defaultValue={initialText("attributeKey", "")} aria-describedby={f("attributeKey").descriptionId}>
              <option value="">{t("campaigns.form.attributeNone")}</option>
              {data.attributes.map((a) => (
                <option key={a.key} value={a.key}>
                  {a.name}
                </option>
              ))}
            </select>
            <FieldErrors errors={f("attributeKey").errors} id={f("attributeKey").errorId} />
          </div>
        ) : null}

        {type !== "PICKWINNERS" || !hydrated || byKeyword ? issueFields : null}

        <DateTime
          meta={f("closeDate")}
          time={f("closeTime")}
          label={t(`campaigns.form.close.${type}`)}
          hint={t(parts.close === "optional" ? "campaigns.form.closeOptionalHint" : `campaigns.form.closeHint.${type}`)}
        />

        {actionData?.askEmptyGroup || initial("confirmEmptyGroup") === "on" ? (
          <div className="banner banner--warning cf-confirm" role="group">
            <Checkbox meta={f("confirmEmptyGroup")} label={t("campaigns.form.confirmEmptyGroup")} hint={t("campaigns.form.confirmEmptyGroupHint")} />
          </div>
        ) : null}

        <div className="actions cf-actions">
          <Button>{campaign ? t("campaigns.form.save") : t("campaigns.form.create", { type: typeName })}</Button>
          <Link to={campaign ? `/viewcampaign?id=${campaign.id}` : "/newcampaign"} className="btn btn--secondary">
            {t("common.cancel")}
          </Link>
        </div>
      </AppForm>
    </div>
  );
}
