-- A draft card as the pods' documents list it: [id, catalogue card id, printing id, rarity, foil,
-- is_dfc], kept on its row (drafts_draftcard.document_entry) by a trigger on every insert and on
-- every update of those columns. A card keeps them when it moves from pack to pile, so the pod's
-- document, read after every pick (drafts_pod_document), copies each card's entry instead of
-- building it again (bench/pick_function's document figure).
CREATE OR REPLACE FUNCTION drafts_draftcard_entry() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.document_entry := json_build_array(NEW.id, NEW.card_id, NEW.printing_id, NEW.rarity, NEW.foil, NEW.is_dfc);
  RETURN NEW;
END
$$;
